import type { ArrivalClaim } from '../../shared/domain/arrival';
import { routeByName } from '../../shared/routes';
import { jobStateSchema } from '../../shared/schemas/job';
import { checkProArrival } from '../arrival/arrival';
import { JobChangeRefused, jobsRepo, type JobItem } from './data/jobs';
import type { WorkerItem } from '../workers/data/workers';
import { cancelArrival, dispatchCycle } from './dispatch';
import { ConflictError } from '../common/errors';
import { http, reply } from '../common/http';
import { toWorkerJobView } from './job-views';
import { arrivalClaimed, jobStepped } from './job-events';
import { logger } from '../common/logger';
import { checkWorkerMove, jobForWorker } from './worker-jobs';
import { requireOwnWorkerId } from '../workers/worker-scope';

const stampOf = { en_route: 'enRouteAt', in_progress: 'startedAt' } as const;

/** Why a conditional change of the pro's job did not happen, worded for them. */
function refusal(error: unknown, worker: WorkerItem, to: 'en_route' | 'arrived' | 'in_progress'): Error {
  if (!(error instanceof JobChangeRefused)) return error as Error;
  const current = error.current;
  if (!current || current.acceptedBy !== worker.id) return new ConflictError('This job was reassigned: you did not arrive in time.');
  checkWorkerMove(current, to);
  return new ConflictError('This job changed at the same time. Reload and try again.');
}

/**
 * Mark Arrived ends the 45-minute rule, so it takes a proof: a recent, precise fix near the job.
 * Without one the job stays where it is and the customer is asked to confirm (202, with what the pro
 * is told); the rule keeps running meanwhile.
 */
async function arrive(job: JobItem, worker: WorkerItem, position: { lat: number; lng: number; accuracy: number } | undefined) {
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const check = await checkProArrival(job, worker, position, nowMs);
  if (check.proven) {
    let moved;
    try {
      const { lat, lng, accuracy, at } = check.fix;
      moved = await jobsRepo.arrive({ jobId: job.id, workerId: worker.id, from: job.state, evidence: { method: 'location', lat, lng, accuracy, distanceM: check.distanceM, at }, now, arriveBy: job.arriveBy });
    } catch (error) {
      // The customer confirmed the same arrival a moment earlier: it is recorded, which is what was asked.
      if (error instanceof JobChangeRefused && error.current?.acceptedBy === worker.id && error.current.state === 'arrived') return toWorkerJobView(error.current, worker);
      throw refusal(error, worker, 'arrived');
    }
    await cancelArrival(job.id, worker.id, dispatchCycle(job));
    await jobStepped(moved, 'arrived');
    logger.info('Job state changed', { jobId: job.id, state: 'arrived', evidence: 'location', distanceM: check.distanceM });
    return toWorkerJobView(moved, worker);
  }
  // Pressing again while the customer has not answered keeps the first claim's time and asks once.
  const pending = job.arrivalClaim?.workerId === worker.id ? job.arrivalClaim : undefined;
  const claim: ArrivalClaim = { workerId: worker.id, claimedAt: pending?.claimedAt ?? now, reason: check.reason, distanceM: check.distanceM };
  let claimed;
  try {
    claimed = await jobsRepo.claimArrival({ jobId: job.id, from: job.state, claim, now });
  } catch (error) {
    throw refusal(error, worker, 'arrived');
  }
  if (!pending) await arrivalClaimed(claimed, worker.fullName);
  logger.info('Arrival claimed, customer asked', { jobId: job.id, reason: check.reason, distanceM: check.distanceM ?? undefined });
  return reply(202, toWorkerJobView(claimed, worker));
}

/** Mark En Route, Mark Arrived, Start Work: only the lifecycle's next steps, only by the holder. */
export const handler = http(routeByName('set-job-state'), jobStateSchema, async ({ params, body, caller }) => {
  const worker = caller.worker;
  requireOwnWorkerId(worker, body.workerId);
  const job = await jobForWorker(params.id, worker);
  if (job.acceptedBy !== worker.id) throw new ConflictError('Accept the job first.');
  checkWorkerMove(job, body.state);
  if (body.state === 'arrived') return arrive(job, worker, body.position);
  let moved;
  try {
    moved = await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: job.state, to: body.state, stamp: stampOf[body.state], now: new Date().toISOString() });
  } catch (error) {
    throw refusal(error, worker, body.state);
  }
  await jobStepped(moved, body.state);
  logger.info('Job state changed', { jobId: job.id, state: body.state });
  return toWorkerJobView(moved, worker);
});
