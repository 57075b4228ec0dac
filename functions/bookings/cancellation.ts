import { JobChangeRefused, jobsRepo, type JobItem } from '../jobs/data/jobs';
import { cancelArrival, cancelOfferTimers, cancelScheduledArrival, cancelStartTimers, dispatchCycle } from '../jobs/dispatch';
import { ConflictError } from '../common/errors';
import { jobCancelled } from '../jobs/job-events';
import { logger } from '../common/logger';
import { scheduledJobCancelled } from '../jobs/schedule-events';

/**
 * A customer's job cancelled by its own conditional write: the pros it was offered lose the offer
 * and its timers go; a scheduled job's pro is freed in the same write and told.
 */
export const ACCEPTED = 'A professional has already accepted this request, so it can no longer be cancelled here. Call them, or contact support.';
export const ON_THE_WAY = 'Your pro is already on the way, so this request can no longer be cancelled here. Call them, or contact support.';
export const CREW_HELD =
  'A pro of this request has already accepted it and is on the way or at work, so the request can no longer be cancelled here. Call them, or contact support.';

/** A scheduled job stays the customer's to cancel after a pro accepted it, until they are on the way. */
const heldScheduled = (job: JobItem): job is JobItem & { requestedTime: string; acceptedBy: string } =>
  job.state === 'accepted' && Boolean(job.requestedTime) && Boolean(job.acceptedBy);

export const mayCancel = (job: JobItem) => job.state === 'booked' || job.state === 'offered' || heldScheduled(job);

/** One job's cancellation, by its own conditional write; a job already cancelled is left as it is. */
export async function cancelOne(found: JobItem, customerId: string, message?: string): Promise<void> {
  if (heldScheduled(found)) return cancelHeldScheduled(found);
  let before;
  try {
    before = await jobsRepo.cancel(found.id, customerId, new Date().toISOString());
  } catch (error) {
    if (!(error instanceof JobChangeRefused)) throw error;
    if (error.current?.state === 'cancelled') return;
    throw new ConflictError(found.crew ? CREW_HELD : ACCEPTED);
  }
  const offeredTo = Object.keys(before.offers ?? {});
  await cancelOfferTimers(before.id, offeredTo, dispatchCycle(before));
  await jobsRepo.dropOffers(before.id, offeredTo);
  if (before.requestedTime) await cancelStartTimers(before.id, before.requestedTime);
  logger.info('Request cancelled', { jobId: before.id });
  const job = (await jobsRepo.findById(before.id))!;
  await jobCancelled(job, before.tried ?? [], message);
}

/**
 * The pro who accepted a scheduled job is freed in the same write and told; its arrival rule and
 * reminders are deleted (any that fire anyway find it cancelled and do nothing).
 */
async function cancelHeldScheduled(found: JobItem & { requestedTime: string; acceptedBy: string }): Promise<void> {
  try {
    await jobsRepo.cancelScheduledHeld(found, new Date().toISOString());
  } catch (error) {
    if (!(error instanceof JobChangeRefused)) throw error;
    if (error.current?.state === 'cancelled') return;
    throw new ConflictError(found.crew ? CREW_HELD : ON_THE_WAY);
  }
  const cycle = dispatchCycle(found);
  await cancelArrival(found.id, found.acceptedBy, cycle);
  await cancelScheduledArrival(found.id, found.acceptedBy, Date.parse(found.requestedTime));
  await cancelStartTimers(found.id, found.requestedTime);
  logger.info('Scheduled request cancelled', { jobId: found.id });
  const job = (await jobsRepo.findById(found.id))!;
  await jobCancelled(job, []);
  await scheduledJobCancelled(job, found.acceptedBy);
}
