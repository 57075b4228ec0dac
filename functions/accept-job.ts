import { routeByName } from '../shared/routes';
import { jobActionSchema } from '../shared/schemas/job';
import { JobChangeRefused, jobsRepo } from './lib/data/jobs';
import { cancelOfferTimers, scheduleArrival } from './lib/dispatch';
import { env } from './lib/env';
import { http } from './lib/http';
import { toWorkerJobView } from './lib/job-views';
import { jobAccepted } from './lib/job-events';
import { logger } from './lib/logger';
import { acceptRefusal, JOB_NOT_FOUND } from './lib/worker-jobs';
import { requireOwnWorkerId } from './lib/worker-scope';
import { NotFoundError } from './lib/errors';

/**
 * The first accept wins (one conditional transaction); everyone else gets a 409 or 403 saying why.
 * The winner's arrival grace starts: arriveBy and its timer.
 */
export const handler = http(routeByName('accept-job'), jobActionSchema, async ({ params, body, caller }) => {
  const worker = caller.worker;
  requireOwnWorkerId(worker, body.workerId);
  const jobId = params.jobId ?? '';
  if (!/^[A-Za-z0-9_-]{22}$/.test(jobId)) throw new NotFoundError(JOB_NOT_FOUND);
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const arriveBy = new Date(nowMs + env.ARRIVAL_GRACE_SECONDS * 1000).toISOString();
  try {
    await jobsRepo.accept({ jobId, workerId: worker.id, hourlyRate: worker.hourlyRate, now, arriveBy });
  } catch (error) {
    if (!(error instanceof JobChangeRefused)) throw error;
    const job = error.current;
    // A retry of an accept that already won answers as the win did.
    if (job?.acceptedBy === worker.id) return toWorkerJobView(job, worker);
    throw acceptRefusal(error, worker, nowMs);
  }
  const job = (await jobsRepo.findById(jobId))!;
  await scheduleArrival(jobId, worker.id, arriveBy, job.reassignedCount);
  await cancelOfferTimers(jobId, job.tried.filter((id) => id !== worker.id), job.reassignedCount);
  logger.info('Job accepted', { jobId, workerId: worker.id });
  await jobAccepted(job, worker);
  return toWorkerJobView(job, worker);
});
