import { requestedTimeProblem } from '../../shared/domain/estimate';
import { routeByName } from '../../shared/routes';
import { rescheduleSchema } from '../../shared/schemas/request';
import { REQUEST_NOT_FOUND, requestViews } from './customer-jobs';
import { crewOf, refuseCrewMember } from '../jobs/crews';
import { JobChangeRefused, jobsRepo, type JobItem } from '../jobs/data/jobs';
import { cancelOfferTimers, cancelStartTimers, dispatchCycle, offerNext, scheduleArrivalForStart, scheduleStartTimers } from '../jobs/dispatch';
import { env } from '../common/env';
import { BadRequestError, ConflictError, NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { logger } from '../common/logger';
import { jobRescheduled } from '../jobs/schedule-events';
import { arrivalDeadlineMs } from '../jobs/scheduling';
import { unavailable } from '../common/transient';

/** A version changed between the read and the write (a pro's offer, an expiry): read again. */
const ATTEMPTS = 3;

/** Why this job's time can no longer be moved here, in words the customer can act on. */
function notReschedulable(job: JobItem): ConflictError | undefined {
  switch (job.state) {
    case 'booked':
    case 'offered':
    case 'accepted':
      return job.requestedTime
        ? undefined
        : new ConflictError('This request asked for a pro as soon as possible, so it has no time to move. Cancel it and send a new request for the time you want.');
    case 'cancelled':
      return new ConflictError('This request was cancelled, so it cannot be rescheduled. Send a new request for the time you want.');
    case 'en_route':
      return new ConflictError('Your pro is already on the way, so the time can no longer be changed here. Call them, or contact support.');
    default:
      return new ConflictError('Your pro has already arrived or finished, so the time can no longer be changed.');
  }
}

/**
 * The customer moves a scheduled job's start, until the pro is on the way. The new timers (offers,
 * reminders, the pro's arrival deadline) are made first, so the job never starts at a time without
 * them; then one write conditional on the version read moves it. The old start's timers are
 * deleted, and any that fire anyway find the job starting at another time and do nothing. Offers
 * standing for the old time are withdrawn; a pro who accepted keeps the job and is told.
 *
 * A crew (the lead's id) moves together: every member still live is checked first, and if any may
 * no longer move (its pro is on the way) nothing changes; then each moves by its own conditional
 * write, so a retry finishes what a failed call left.
 */
export const handler = http(routeByName('reschedule-request'), rescheduleSchema, async ({ params, body, caller }) => {
  const nowMs = Date.now();
  const problem = requestedTimeProblem(body.requestedTime, nowMs);
  if (problem) throw new BadRequestError(problem);
  const requestedTime = new Date(Date.parse(body.requestedTime)).toISOString();
  const found = await jobsRepo.findCustomersJob(params.id, caller.id);
  if (!found) throw new NotFoundError(REQUEST_NOT_FOUND);
  refuseCrewMember(found);
  const crew = await crewOf(found);
  // A member the owner cancelled stays cancelled; the rest of the crew moves.
  const live = crew.length > 1 ? crew.filter((job) => job.state !== 'cancelled') : crew;
  for (const job of live) {
    const refusal = notReschedulable(job);
    if (refusal) throw refusal;
  }
  let lead = found;
  for (const job of live) {
    const moved = await rescheduleOne(job.id, caller.id, requestedTime, nowMs);
    if (job.id === found.id) lead = moved;
  }
  return (await requestViews([lead]))[0]!;
});

/** One job's move to the new start, read again on a lost race; answers the job as it now is. */
async function rescheduleOne(jobId: string, customerId: string, requestedTime: string, nowMs: number): Promise<JobItem> {
  const startMs = Date.parse(requestedTime);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const job = await jobsRepo.findCustomersJob(jobId, customerId);
    if (!job) throw new NotFoundError(REQUEST_NOT_FOUND);
    const refusal = notReschedulable(job);
    if (refusal) throw refusal;
    // A retry of a reschedule that already landed answers as it did.
    if (job.requestedTime === requestedTime) return job;
    const holder = job.state === 'accepted' ? job.acceptedBy : null;
    const arriveBy = holder ? new Date(arrivalDeadlineMs(startMs, nowMs, env.ARRIVAL_GRACE_SECONDS * 1000)).toISOString() : null;
    try {
      await scheduleStartTimers({ id: job.id, requestedTime }, nowMs);
      if (holder && arriveBy) await scheduleArrivalForStart(job.id, holder, arriveBy, startMs);
    } catch (error) {
      throw unavailable(error, 'We could not set the reminders for the new time, so nothing changed.');
    }
    let moved: JobItem;
    try {
      moved = await jobsRepo.reschedule(job, { requestedTime, arriveBy, now: new Date(nowMs).toISOString() });
    } catch (error) {
      if (!(error instanceof JobChangeRefused)) throw error;
      // The new start's timers stay: each finds the job at another time (or this one, on the next try).
      continue;
    }
    const withdrawn = holder ? [] : Object.keys(job.offers ?? {});
    await cancelStartTimers(job.id, job.requestedTime!);
    await cancelOfferTimers(job.id, withdrawn, dispatchCycle(job));
    await jobsRepo.dropOffers(job.id, withdrawn);
    logger.info('Request rescheduled', { jobId: job.id, held: Boolean(holder) });
    await jobRescheduled(moved, withdrawn);
    // Searching again for the new time: at once when it is less than a day away, else when its offers open.
    return holder ? moved : ((await offerNext(job.id)) ?? moved);
  }
  throw new ConflictError('This request changed while we were moving it. Look at it again and choose the time once more.');
}
