import { routeByName } from '../../shared/routes';
import { jobsRepo } from './data/jobs';
import { http } from '../common/http';
import { toWorkerJobView } from './job-views';
import { requireOwnWorkerId } from '../workers/worker-scope';

/** The jobs the token's worker holds now, soonest due first. */
export const handler = http(routeByName('list-worker-jobs'), async ({ params, caller }) => {
  requireOwnWorkerId(caller.worker, params.workerId);
  const jobs = await jobsRepo.listHeldBy(caller.worker.id);
  return jobs
    .map((job) => toWorkerJobView(job, caller.worker))
    .sort((a, b) => (a.arriveBy ?? '').localeCompare(b.arriveBy ?? ''));
});
