import { routeByName } from '../../shared/routes';
import { jobsRepo } from './data/jobs';
import { http } from '../common/http';
import { toOfferView } from './job-views';
import { requireOwnWorkerId } from '../workers/worker-scope';

/** The offers standing for the token's worker, soonest to expire first. */
export const handler = http(routeByName('list-job-offers'), async ({ params, caller }) => {
  const worker = caller.worker;
  requireOwnWorkerId(worker, params.workerId);
  const now = new Date().toISOString();
  const jobs = await jobsRepo.findMany(await jobsRepo.offeredJobIds(worker.id));
  return jobs
    .filter((job) => job.state === 'offered' && (job.offers?.[worker.id] ?? '') > now)
    .map((job) => toOfferView(job, worker))
    .sort((a, b) => a.offerExpiresAt.localeCompare(b.offerExpiresAt));
});
