import { routeByName } from '../../shared/routes';
import { adminJobOfferSchema } from '../../shared/schemas/owner-jobs';
import { ownerJobs } from './data/owner-jobs';
import { http } from '../common/http';
import { offerJobTo } from './owner-job-actions';

/** The owner offers the job to a pro they chose; it expires like any offer and the pro accepts it from their list. */
export const handler = http(routeByName('offer-job-to-worker'), adminJobOfferSchema, async ({ params, body, caller }) => {
  await offerJobTo(params.id, body.workerId, caller);
  return (await ownerJobs.detail(params.id))!;
});
