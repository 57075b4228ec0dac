import { routeByName } from '../shared/routes';
import { REQUESTS_LINK_GONE, requestsLinkOpenSchema, type RequestsLinkOpened } from '../shared/schemas/requests-link';
import { cookieCustomerId, customerCookie } from './lib/customer';
import { requestViews } from './lib/customer-jobs';
import { customersRepo } from './lib/data/customers';
import { jobsRepo } from './lib/data/jobs';
import { requestsLinksRepo } from './lib/data/requests-links';
import { GoneError } from './lib/errors';
import { gatherRequests } from './lib/gather-requests';
import { http, reply } from './lib/http';
import { askingBrowserSecret } from './lib/requests-link-cookie';

/**
 * Opens a "Find my requests" link in this browser: spends it (one conditional write: a second open,
 * at once or later, and an expired link are 410), gathers the address's requests to the address's
 * identity (functions/lib/gather-requests.ts), with what this browser had when it is the browser
 * that asked for the link, and signs the browser in as that identity with the customer cookie.
 */
export const handler = http(routeByName('open-requests-link'), requestsLinkOpenSchema, async ({ body, event }) => {
  const link = await requestsLinksRepo.consume(body.token, askingBrowserSecret(event));
  if (!link) throw new GoneError(REQUESTS_LINK_GONE);
  // Only the browser that asked for the link brings its own earlier identity along (see requests-link-cookie.ts).
  const cookieId = cookieCustomerId(event);
  const { customerId, moved } = await gatherRequests(link.email, link.askedHere ? cookieId : undefined);
  const had = !link.askedHere && cookieId ? await customersRepo.resolve(cookieId) : undefined;
  const jobs = await jobsRepo.listForCustomer(customerId);
  const answer: RequestsLinkOpened = { gathered: moved, keptApart: had !== undefined && had !== customerId, requests: await requestViews(jobs.reverse()) };
  return reply(200, answer, { cookies: [customerCookie(customerId)] });
});
