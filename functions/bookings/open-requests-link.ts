import { routeByName } from '../../shared/routes';
import { REQUESTS_LINK_GONE, requestsLinkOpenSchema, type RequestsLinkOpened } from '../../shared/schemas/requests-link';
import { cookieCustomerId, customerCookie } from '../common/auth/customer';
import { requestViews } from './customer-jobs';
import { jobsRepo } from '../jobs/data/jobs';
import { requestsLinksRepo } from './data/requests-links';
import { GoneError } from '../common/errors';
import { addressRequests, gatherRequests, linkedRequestOf } from './gather-requests';
import { http, reply } from '../common/http';
import { askingBrowserSecret } from './requests-link-cookie';

/**
 * Opens a "Find my requests" link, once the person confirmed on the page: spends it (one
 * conditional write: a second open, at once or later, and an expired link are 410).
 *
 * In the browser that asked for the link, the address's requests are gathered to the address's
 * identity with what this browser had (functions/bookings/gather-requests.ts), and the browser acts as
 * that identity from now on (the customer cookie).
 *
 * Any other browser may be one someone got to open a link to their own address: were it switched
 * to that identity, what its owner requests next would be listed in the sender's browser, and its
 * own requests would vanish from view. So it changes nothing there: no cookie, no move; it is shown
 * the address's requests to follow by their tracking links, and keeps its own identity and requests.
 */
export const handler = http(routeByName('open-requests-link'), requestsLinkOpenSchema, async ({ body, event }) => {
  const link = await requestsLinksRepo.consume(body.token, askingBrowserSecret(event));
  if (!link) throw new GoneError(REQUESTS_LINK_GONE);
  if (!link.askedHere) {
    const shown: RequestsLinkOpened = { here: false, requests: (await addressRequests(link.email)).map((job) => ({ ...linkedRequestOf(job), id: job.id })) };
    return shown;
  }
  const { customerId, moved } = await gatherRequests(link.email, cookieCustomerId(event));
  const jobs = await jobsRepo.listForCustomer(customerId);
  const answer: RequestsLinkOpened = { here: true, gathered: moved, requests: await requestViews(jobs.reverse()) };
  return reply(200, answer, { cookies: [customerCookie(customerId)] });
});
