import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { newSecret } from '../common/auth/tokens';
import { readCookies, serializeCookie } from '../common/cookies';
import { secureCookies } from '../common/env';
import { REQUESTS_LINK_SECONDS } from './data/requests-links';

/**
 * The browser that asked for a requests link. A link proves its opener reads the mail; it does not
 * prove the opener asked for it: someone could ask for a link to their own address and get another
 * person to open it, whose browser, switched to their identity, would hand them whatever that
 * person requests next. So the asking browser gets this cookie (a secret whose hash the link
 * keeps), and only a browser that presents it is switched to the address's identity, its own
 * gathered in; any other is only shown the address's requests. HttpOnly, sent only to the link
 * routes, as long as the link lives; set whether or not the address is known, so the answer is the
 * same either way.
 */
export const REQUESTS_LINK_COOKIE = 'requests_link';
const COOKIE_PATH = '/api/customer/requests-link';

export function askingBrowserCookie(): { secret: string; cookie: string } {
  const secret = newSecret();
  return { secret, cookie: serializeCookie(REQUESTS_LINK_COOKIE, secret, { maxAgeSeconds: REQUESTS_LINK_SECONDS, secure: secureCookies, path: COOKIE_PATH }) };
}

/** The asking browser's secret, if this browser presents one. */
export function askingBrowserSecret(event: Pick<APIGatewayProxyEventV2, 'cookies'>): string | undefined {
  const value = readCookies(event)[REQUESTS_LINK_COOKIE];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
}
