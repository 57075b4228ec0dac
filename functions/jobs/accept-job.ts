import { routeByName } from '../../shared/routes';
import { jobActionSchema } from '../../shared/schemas/job';
import { JobChangeRefused, jobsRepo } from './data/jobs';
import { cancelArrival, cancelOfferTimers, dispatchCycle, scheduleArrival } from './dispatch';
import { env } from '../common/env';
import { http } from '../common/http';
import { toWorkerJobView } from './job-views';
import { jobAccepted } from './job-events';
import { logger } from '../common/logger';
import { arrivalDeadlineMs, startOf } from './scheduling';
import { acceptRefusal } from './worker-jobs';
import { requireOwnWorkerId } from '../workers/worker-scope';
import { unavailable } from '../common/transient';
import { mailRepo } from '../mail/data/mail';
import { proAssigned } from '../mail/messages/customers';
import type { JobItem } from './data/jobs';
import type { WorkerItem } from '../workers/data/workers';

/**
 * The customer's "pro assigned" mail, queued once the accept is stored: keyed by the job and its
 * dispatch cycle, so a retried accept (which queues it again, in case the first died before it
 * could) adds nothing, and the next pro of a job sent back to dispatch is a new mail.
 */
async function mailProAssigned(job: JobItem, worker: WorkerItem): Promise<void> {
  const reviews = worker.ratingCount ?? 0;
  const rating = reviews > 0 ? (worker.ratingSum ?? 0) / reviews : null;
  const message = proAssigned(job, { fullName: worker.fullName, rating, reviews }, dispatchCycle(job), Math.round(env.ARRIVAL_GRACE_SECONDS / 60));
  await mailRepo.queue(message);
}

/**
 * The first accept wins (one conditional transaction); everyone else gets a 409 or 403 saying why.
 * The winner's arrival grace starts: arriveBy and its timer, made first.
 */
export const handler = http(routeByName('accept-job'), jobActionSchema, async ({ params, body, caller }) => {
  const worker = caller.worker;
  requireOwnWorkerId(worker, body.workerId);
  const { jobId } = params;
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  // The arrival timer is made before the job changes hands, so an accepted job never lacks one:
  // if Scheduler refuses, nothing is accepted and the offer stays open for another try.
  const seen = await jobsRepo.findById(jobId);
  // A scheduled job's grace counts from its start (or from the accept, if that is later).
  const arriveBy = new Date(arrivalDeadlineMs(seen ? startOf(seen) : null, nowMs, env.ARRIVAL_GRACE_SECONDS * 1000)).toISOString();
  const cycle = seen ? dispatchCycle(seen) : 0;
  const offeredToCaller = seen?.state === 'offered' && seen.offers?.[worker.id] !== undefined;
  if (offeredToCaller) {
    try {
      await scheduleArrival(jobId, worker.id, arriveBy, cycle);
    } catch (error) {
      // Whatever Scheduler said (throttled, down, over its quota), nothing has changed yet and trying
      // again is the right move, so the pro hears that rather than a bare failure.
      throw unavailable(error, 'We could not start your 45-minute arrival timer, so the job was not accepted. It is still offered to you.');
    }
  }
  try {
    await jobsRepo.accept({ jobId, workerId: worker.id, workerName: worker.fullName, hourlyRate: worker.hourlyRate, now, arriveBy, sentAt: seen?.createdAt });
  } catch (error) {
    // Not a refusal (DynamoDB unreachable): the accept may yet have landed, so its timer stays; it
    // does nothing for a worker who does not hold the job.
    if (!(error instanceof JobChangeRefused)) throw error;
    const job = error.current;
    // A retry of an accept that already won answers as the win did (its timer is the first one).
    if (job?.acceptedBy === worker.id) {
      await mailProAssigned(job, worker);
      return toWorkerJobView(job, worker);
    }
    if (offeredToCaller) await cancelArrival(jobId, worker.id, cycle);
    throw acceptRefusal(error, worker, nowMs);
  }
  const job = (await jobsRepo.findById(jobId))!;
  await cancelOfferTimers(jobId, job.tried.filter((id) => id !== worker.id), dispatchCycle(job));
  logger.info('Job accepted', { jobId, workerId: worker.id });
  await mailProAssigned(job, worker);
  await jobAccepted(job, worker);
  return toWorkerJobView(job, worker);
});
