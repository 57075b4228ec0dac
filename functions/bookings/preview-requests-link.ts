import { routeByName } from '../../shared/routes';
import { REQUESTS_LINK_GONE, requestsLinkOpenSchema, type RequestsLinkPreview } from '../../shared/schemas/requests-link';
import { takeAllowances, WINDOW_SECONDS } from '../common/auth/throttle';
import { clientNetwork } from '../common/client-address';
import { requestsLinksRepo } from './data/requests-links';
import { GoneError, TooManyRequestsError } from '../common/errors';
import { addressRequests, linkedRequestOf } from './gather-requests';
import { http } from '../common/http';
import { askingBrowserSecret } from './requests-link-cookie';

const SCOPE = 'requests-link-preview';

/**
 * Reads per network address in 15 minutes: a person opening their link, reloading it, opening the
 * next one. A secret of 256 bits cannot be guessed, so this only keeps the route from being a
 * cheap way to make us read an address's requests over and over.
 */
export const REQUESTS_LINK_PREVIEW_LIMIT = 30;

function refuse(retryAfterSeconds: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new TooManyRequestsError(`Too many links were opened from this connection. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, retryAfterSeconds);
}

/**
 * What opening a "Find my requests" link would show, spending nothing: the page asks the person
 * before it spends the link, so a link someone else got them to open changes nothing unasked.
 * Each request by its street line and date; no name, phone or other address.
 */
export const handler = http(routeByName('preview-requests-link'), requestsLinkOpenSchema, async ({ body, event }) => {
  await takeAllowances(SCOPE, [{ key: `network#${clientNetwork(event)}`, limit: REQUESTS_LINK_PREVIEW_LIMIT, windowSeconds: WINDOW_SECONDS }], refuse);
  const link = await requestsLinksRepo.readUnspent(body.token, askingBrowserSecret(event));
  if (!link) throw new GoneError(REQUESTS_LINK_GONE);
  const answer: RequestsLinkPreview = { email: link.email, askedHere: link.askedHere, requests: (await addressRequests(link.email)).map(linkedRequestOf) };
  return answer;
});
