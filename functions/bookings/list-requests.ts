import { routeByName } from '../../shared/routes';
import { jobsRepo } from '../jobs/data/jobs';
import { existingCustomer } from '../common/auth/customer';
import { requestViews } from './customer-jobs';
import { http } from '../common/http';

/** The caller's own requests and hires, newest first; a visitor without a customer cookie has none. */
export const handler = http(routeByName('list-requests'), async ({ event }) => {
  const customerId = await existingCustomer(event);
  if (!customerId) return [];
  const jobs = await jobsRepo.listForCustomer(customerId);
  return requestViews(jobs.reverse());
});
