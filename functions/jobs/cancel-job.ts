import { routeByName } from '../../shared/routes';
import { adminJobCancelSchema } from '../../shared/schemas/owner-jobs';
import { ownerJobs } from '../owner/data/owner-jobs';
import { http } from '../common/http';
import { cancelJob } from '../owner/owner-job-actions';

/**
 * The owner cancels a job before the work starts, with a message the customer sees on their request
 * and as a notification; standing offers are withdrawn and a pro holding it is freed.
 */
export const handler = http(routeByName('cancel-job'), adminJobCancelSchema, async ({ params, body, caller }) => {
  await cancelJob(params.id, body.message, caller);
  return (await ownerJobs.detail(params.id))!;
});
