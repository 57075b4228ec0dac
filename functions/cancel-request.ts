import { routeByName } from '../shared/routes';
import { REQUEST_NOT_FOUND, requestViews } from './lib/customer-jobs';
import { crewOf, refuseCrewMember } from './lib/crews';
import { JobChangeRefused, jobsRepo, type JobItem } from './lib/data/jobs';
import { cancelArrival, cancelOfferTimers, cancelScheduledArrival, cancelStartTimers, dispatchCycle } from './lib/dispatch';
import { ConflictError, NotFoundError } from './lib/errors';
import { http } from './lib/http';
import { jobCancelled } from './lib/job-events';
import { logger } from './lib/logger';
import { scheduledJobCancelled } from './lib/schedule-events';

const ACCEPTED = 'A professional has already accepted this request, so it can no longer be cancelled here. Call them, or contact support.';
const ON_THE_WAY = 'Your pro is already on the way, so this request can no longer be cancelled here. Call them, or contact support.';
const CREW_HELD =
  'A pro of this request has already accepted it and is on the way or at work, so the request can no longer be cancelled here. Call them, or contact support.';

/** A scheduled job stays the customer's to cancel after a pro accepted it, until they are on the way. */
const heldScheduled = (job: JobItem): job is JobItem & { requestedTime: string; acceptedBy: string } =>
  job.state === 'accepted' && Boolean(job.requestedTime) && Boolean(job.acceptedBy);

const mayCancel = (job: JobItem) => job.state === 'booked' || job.state === 'offered' || heldScheduled(job);

/**
 * The customer withdraws a request no pro has accepted yet. One conditional write decides between
 * this and an accept racing it; the pros it was offered to lose the offer at once and its timers go
 * (one that fires anyway finds nothing to expire).
 *
 * A crew (the lead's id) is cancelled whole or not at all: every member is read first, and if any
 * pro holds theirs past the point of cancelling (an as-soon-as-possible job accepted, or any on the
 * way) nothing is written. Then each member is cancelled by its own conditional write, so a retry
 * finishes what a failed call left and a cancelled member answers as cancelled.
 */
export const handler = http(routeByName('cancel-request'), async ({ params, caller }) => {
  const found = await jobsRepo.findCustomersJob(params.id, caller.id);
  if (!found) throw new NotFoundError(REQUEST_NOT_FOUND);
  refuseCrewMember(found);
  const live = (await crewOf(found)).filter((job) => job.state !== 'cancelled');
  if (live.length === 0) return (await requestViews([found]))[0]!;
  if (!live.every(mayCancel)) throw new ConflictError(found.crew ? CREW_HELD : ACCEPTED);
  for (const job of live) await cancelOne(job, caller.id);
  return (await requestViews([(await jobsRepo.findById(found.id))!]))[0]!;
});

/** One job's cancellation, by its own conditional write; a job already cancelled is left as it is. */
async function cancelOne(found: JobItem, customerId: string): Promise<void> {
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
  await jobCancelled(job, before.tried ?? []);
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
