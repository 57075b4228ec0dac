import { routeByName } from '../../shared/routes';
import { REQUESTS_LINK_SENT, requestsLinkSchema } from '../../shared/schemas/requests-link';
import { accountName, takeAllowances, WINDOW_SECONDS, type Allowance } from '../common/auth/throttle';
import { clientNetwork } from '../common/client-address';
import { REQUESTS_LINK_SECONDS, requestsLinksRepo } from './data/requests-links';
import { TooManyRequestsError } from '../common/errors';
import { http, reply } from '../common/http';
import { askingBrowserCookie } from './requests-link-cookie';
import { requestsLink } from '../mail/messages/sign-in-links';

const SCOPE = 'requests-link';
const HOUR_SECONDS = 60 * 60;

/**
 * Asking for links is rationed like a login, whether or not the address is known (so a 429 tells
 * nothing either): 5 per address typed from one network address and 20 per network address in 15
 * minutes; and 10 an hour per address typed, from anywhere, which bounds the mail one address can
 * be sent however many networks ask.
 */
export const REQUESTS_LINK_LIMITS = { pair: 5, network: 20, addressPerHour: 10 } as const;

function allowances(email: string, network: string): Allowance[] {
  const name = accountName(email);
  return [
    { key: `pair#${name}#${network}`, limit: REQUESTS_LINK_LIMITS.pair, windowSeconds: WINDOW_SECONDS },
    { key: `network#${network}`, limit: REQUESTS_LINK_LIMITS.network, windowSeconds: WINDOW_SECONDS },
    { key: `address#${name}`, limit: REQUESTS_LINK_LIMITS.addressPerHour, windowSeconds: HOUR_SECONDS },
  ];
}

function refuse(retryAfterSeconds: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new TooManyRequestsError(`Too many links were asked for. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, retryAfterSeconds);
}

/**
 * "Find my requests": mails a single-use link to the address when requests were made with it. The
 * answer is the same either way, so the form tells nobody which addresses we know; the link's
 * secret is in its fragment, which no server (ours or a log) ever receives.
 */
export const handler = http(routeByName('request-requests-link'), requestsLinkSchema, async ({ body, event }) => {
  await takeAllowances(SCOPE, allowances(body.email, clientNetwork(event)), refuse);
  const asking = askingBrowserCookie();
  if (await requestsLinksRepo.addressKnown(body.email)) {
    await requestsLinksRepo.create(body.email, asking.secret, (link) => requestsLink(body.email, link.id, link.secret, REQUESTS_LINK_SECONDS));
  }
  return reply(200, { message: REQUESTS_LINK_SENT }, { cookies: [asking.cookie] });
});
