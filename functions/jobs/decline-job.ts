import { routeByName } from '../../shared/routes';
import { jobActionSchema } from '../../shared/schemas/job';
import { jobsRepo } from './data/jobs';
import { cancelOfferTimers, dispatchCycle, offerNext } from './dispatch';
import { ConflictError } from '../common/errors';
import { http, reply } from '../common/http';
import { logger } from '../common/logger';
import { jobForWorker } from './worker-jobs';
import { requireOwnWorkerId } from '../workers/worker-scope';

/** Pass: the offer is withdrawn and the next nearest worker is offered the job at once. */
export const handler = http(routeByName('decline-job'), jobActionSchema, async ({ params, body, caller }) => {
  const worker = caller.worker;
  requireOwnWorkerId(worker, body.workerId);
  const job = await jobForWorker(params.jobId, worker);
  if (!(await jobsRepo.withdrawOffer(job.id, worker.id, new Date().toISOString()))) {
    throw new ConflictError('This offer is no longer open.');
  }
  await cancelOfferTimers(job.id, [worker.id], dispatchCycle(job));
  logger.info('Offer declined', { jobId: job.id, workerId: worker.id });
  await offerNext(job.id);
  return reply(204, undefined);
});
