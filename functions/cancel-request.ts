import { routeByName } from '../shared/routes';
import { REQUEST_NOT_FOUND, requestViews } from './lib/customer-jobs';
import { JobChangeRefused, jobsRepo, type JobItem } from './lib/data/jobs';
import { cancelArrival, cancelOfferTimers, cancelScheduledArrival, cancelStartTimers, dispatchCycle } from './lib/dispatch';
import { ConflictError, NotFoundError } from './lib/errors';
import { http } from './lib/http';
import { jobCancelled } from './lib/job-events';
import { logger } from './lib/logger';
import { scheduledJobCancelled } from './lib/schedule-events';

/**
 * The customer withdraws a request no pro has accepted yet. One conditional write decides between
 * this and an accept racing it; the pros it was offered to lose the offer at once and its timers go
 * (one that fires anyway finds nothing to expire).
 */
export const handler = http(routeByName('cancel-request'), async ({ params, caller }) => {
  const found = await jobsRepo.findCustomersJob(params.id, caller.id);
  if (!found) throw new NotFoundError(REQUEST_NOT_FOUND);
  if (found.state === 'cancelled') return (await requestViews([found]))[0]!;
  // A scheduled job stays the customer's to cancel after a pro accepted it, until they are on the way.
  if (found.state === 'accepted' && found.requestedTime && found.acceptedBy) return cancelHeldScheduled(found as JobItem & { requestedTime: string; acceptedBy: string });
  let before;
  try {
    before = await jobsRepo.cancel(found.id, caller.id, new Date().toISOString());
  } catch (error) {
    if (!(error instanceof JobChangeRefused)) throw error;
    if (error.current?.state === 'cancelled') return (await requestViews([error.current]))[0]!;
    throw new ConflictError('A professional has already accepted this request, so it can no longer be cancelled here. Call them, or contact support.');
  }
  const offeredTo = Object.keys(before.offers ?? {});
  await cancelOfferTimers(before.id, offeredTo, dispatchCycle(before));
  await jobsRepo.dropOffers(before.id, offeredTo);
  if (before.requestedTime) await cancelStartTimers(before.id, before.requestedTime);
  logger.info('Request cancelled', { jobId: before.id });
  const job = (await jobsRepo.findById(before.id))!;
  await jobCancelled(job, before.tried ?? []);
  return (await requestViews([job]))[0]!;
});

/**
 * The pro who accepted a scheduled job is freed in the same write and told; its arrival rule and
 * reminders are deleted (any that fire anyway find it cancelled and do nothing).
 */
async function cancelHeldScheduled(found: JobItem & { requestedTime: string; acceptedBy: string }) {
  try {
    await jobsRepo.cancelScheduledHeld(found, new Date().toISOString());
  } catch (error) {
    if (!(error instanceof JobChangeRefused)) throw error;
    if (error.current?.state === 'cancelled') return (await requestViews([error.current]))[0]!;
    throw new ConflictError('Your pro is already on the way, so this request can no longer be cancelled here. Call them, or contact support.');
  }
  const cycle = dispatchCycle(found);
  await cancelArrival(found.id, found.acceptedBy, cycle);
  await cancelScheduledArrival(found.id, found.acceptedBy, Date.parse(found.requestedTime));
  await cancelStartTimers(found.id, found.requestedTime);
  logger.info('Scheduled request cancelled', { jobId: found.id });
  const job = (await jobsRepo.findById(found.id))!;
  await jobCancelled(job, []);
  await scheduledJobCancelled(job, found.acceptedBy);
  return (await requestViews([job]))[0]!;
}
