import { routeByName } from '../../shared/routes';
import { ownerJobs } from '../owner/data/owner-jobs';
import { http } from '../common/http';
import { reofferJob } from '../owner/owner-job-actions';

/** The owner's "Offer again": the search starts afresh, as the customer's Try again does. */
export const handler = http(routeByName('reoffer-job'), async ({ params, caller }) => {
  await reofferJob(params.id, caller);
  return (await ownerJobs.detail(params.id))!;
});
