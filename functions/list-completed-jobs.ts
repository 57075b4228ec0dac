import { routeByName } from '../shared/routes';
import { jobsRepo } from './lib/data/jobs';
import { env } from './lib/env';
import { http } from './lib/http';
import { toCompletedJobView } from './lib/job-views';
import { requireOwnWorkerId } from './lib/worker-scope';

/** The token's worker's finished jobs, newest first, with what each earned at the one fee rate. */
export const handler = http(routeByName('list-completed-jobs'), async ({ params, caller }) => {
  requireOwnWorkerId(caller.worker, params.workerId);
  const jobs = await jobsRepo.listCompletedBy(caller.worker.id);
  return jobs.reverse().map((job) => toCompletedJobView(job, env.PLATFORM_FEE_PERCENT));
});
