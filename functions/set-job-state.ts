import { routeByName } from '../shared/routes';
import { jobStateSchema } from '../shared/schemas/job';
import { JobChangeRefused, jobsRepo } from './lib/data/jobs';
import { cancelArrival, dispatchCycle } from './lib/dispatch';
import { ConflictError } from './lib/errors';
import { http } from './lib/http';
import { toWorkerJobView } from './lib/job-views';
import { jobStepped } from './lib/job-events';
import { logger } from './lib/logger';
import { checkWorkerMove, jobForWorker } from './lib/worker-jobs';
import { requireOwnWorkerId } from './lib/worker-scope';

const stampOf = { en_route: 'enRouteAt', arrived: 'arrivedAt', in_progress: 'startedAt' } as const;

/** Mark En Route, Mark Arrived, Start Work: only the lifecycle's next steps, only by the holder. */
export const handler = http(routeByName('set-job-state'), jobStateSchema, async ({ params, body, caller }) => {
  const worker = caller.worker;
  requireOwnWorkerId(worker, body.workerId);
  const job = await jobForWorker(params.id ?? '', worker);
  if (job.acceptedBy !== worker.id) throw new ConflictError('Accept the job first.');
  checkWorkerMove(job, body.state);
  let moved;
  try {
    moved = await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: job.state, to: body.state, stamp: stampOf[body.state], now: new Date().toISOString() });
  } catch (error) {
    if (!(error instanceof JobChangeRefused)) throw error;
    const current = error.current;
    if (!current || current.acceptedBy !== worker.id) throw new ConflictError('This job was reassigned: you did not arrive in time.');
    checkWorkerMove(current, body.state);
    throw new ConflictError('This job changed at the same time. Reload and try again.');
  }
  if (body.state === 'arrived') {
    await cancelArrival(job.id, worker.id, dispatchCycle(job));
    // The 45-minute rule's evidence: where the worker's last shared fix put them when they arrived.
    await jobsRepo.recordArrivalFix(job.id, worker.id);
  }
  await jobStepped(moved, body.state);
  logger.info('Job state changed', { jobId: job.id, state: body.state });
  return toWorkerJobView(moved, worker);
});
