import { routeByName } from '../../shared/routes';
import { invoicesRepo } from '../payments/data/invoices';
import { jobsRepo } from './data/jobs';
import { env } from '../common/env';
import { http } from '../common/http';
import { toCompletedJobView } from './job-views';
import { requireOwnWorkerId } from '../workers/worker-scope';

/** The token's worker's finished jobs, newest first, with what each earned (its invoice's figures once invoiced). */
export const handler = http(routeByName('list-completed-jobs'), async ({ params, caller }) => {
  requireOwnWorkerId(caller.worker, params.workerId);
  const jobs = await jobsRepo.listCompletedBy(caller.worker.id);
  const invoices = new Map(
    (await invoicesRepo.findMany(jobs.map((j) => j.invoiceId).filter((id): id is string => Boolean(id)))).map((i) => [i.id, i]),
  );
  return jobs.reverse().map((job) => toCompletedJobView(job, env.PLATFORM_FEE_PERCENT, job.invoiceId ? invoices.get(job.invoiceId) : undefined));
});
