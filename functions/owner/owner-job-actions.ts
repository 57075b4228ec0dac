import type { OwnerCaller } from '../common/auth/caller-types';
import { canTakeOffer } from '../jobs/data/dispatch-index';
import { ownerActor } from '../jobs/data/job-history';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import { OWNER_CANCELLABLE, ownerJobs } from './data/owner-jobs';
import { workersRepo } from '../workers/data/workers';
import { cancelArrival, cancelOfferTimers, dispatchCycle, offerNext, restartSearch, timerNames, type OfferTimerInput } from '../jobs/dispatch';
import { env } from '../common/env';
import { ConflictError, NotFoundError } from '../common/errors';
import { jobCancelledByOwner, jobOffered } from '../jobs/job-events';
import { logger } from '../common/logger';
import { scheduleOnce } from '../common/scheduler';

/**
 * The owner's moves on a job: search again, offer it to a chosen pro, cancel it. Each is a write
 * conditional on the job as the owner's call read it (its version), so two owners' clicks, or an
 * owner racing a pro's accept, leave one result; the loser hears a 409 saying what happened.
 */

const NO_JOB = 'No job with this id.';
/** Tries when only the job's version moved (an offer expired or was added) and its state is still the one read. */
const ATTEMPTS = 3;

async function jobOrThrow(id: string): Promise<JobItem> {
  const job = await jobsRepo.findById(id);
  if (!job) throw new NotFoundError(NO_JOB);
  return job;
}

/** Why a job no longer looking for a pro cannot be offered (or searched for) again, as the owner reads it. */
function notLookingFor(job: JobItem): ConflictError {
  switch (job.state) {
    case 'cancelled':
      return new ConflictError('This job was cancelled, so it cannot be offered again. The customer can send a new request.');
    case 'accepted':
    case 'en_route':
    case 'arrived':
    case 'in_progress':
      return new ConflictError('A pro already holds this job, so it is not offered to anyone else. Open the job to see who.');
    default:
      return new ConflictError('This job is finished, so it cannot be offered again.');
  }
}

function notCancellable(job: JobItem): ConflictError {
  switch (job.state) {
    case 'cancelled':
      return new ConflictError('This job is already cancelled.');
    case 'in_progress':
      return new ConflictError('The pro has started the work, so the job can no longer be cancelled. Call the pro and the customer to settle it.');
    default:
      return new ConflictError('This job is finished (completed, verified or paid), so it can no longer be cancelled. Settle it with the customer, e.g. by a refund in Stripe.');
  }
}

/** The job changed state between the owner's read and their write: say what it is now. */
function changedUnderfoot(job: JobItem | undefined): ConflictError {
  if (!job) return new ConflictError(NO_JOB);
  if (job.state === 'accepted') return new ConflictError('A pro accepted this job a moment ago. Look at it again before doing anything more.');
  return new ConflictError(`This job changed a moment ago (it is now ${job.state.replace(/_/g, ' ')}). Look at it again before doing anything more.`);
}

/**
 * Starts the search afresh, as the customer's Try again does, for a job whose search ended with
 * nobody; a job still searching is topped up with offers to the nearest free pros.
 */
export async function reofferJob(id: string, owner: OwnerCaller): Promise<void> {
  const job = await jobOrThrow(id);
  if (job.state !== 'booked' && job.state !== 'offered') throw notLookingFor(job);
  if (job.dispatch === 'no_worker_available') {
    const restarted = await restartSearch(job, 'We are asking the pros nearby again.', ownerActor(owner));
    if (!restarted) {
      // Another click (or a pro coming on call) restarted it first: the same outcome, unless it left the search.
      const now = await jobOrThrow(id);
      if (now.state !== 'booked' && now.state !== 'offered') throw changedUnderfoot(now);
    }
    return;
  }
  await offerNext(job.id);
}

/** Offers the job to one pro the owner chose: of its trade, on call, verified, active and free. */
export async function offerJobTo(id: string, workerId: string, owner: OwnerCaller): Promise<void> {
  const worker = await workersRepo.findById(workerId);
  if (!worker) throw new NotFoundError('No pro with this id.');
  let seenState: JobItem['state'] | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const job = await jobOrThrow(id);
    if (seenState && job.state !== seenState) throw changedUnderfoot(job);
    seenState = job.state;
    if (job.state !== 'booked' && job.state !== 'offered') throw notLookingFor(job);
    const nowMs = Date.now();
    const standing = job.offers?.[worker.id];
    if (standing && Date.parse(standing) > nowMs) throw new ConflictError(`${worker.fullName} already has this offer and has until it expires to answer.`);
    if (!worker.categories.includes(job.category)) throw new ConflictError(`${worker.fullName} does not work in ${job.category}. Choose a pro of that trade.`);
    if (!canTakeOffer(worker)) {
      throw new ConflictError(`${worker.fullName} cannot take a job now (off call, not clocked in, holding another job, or not active). Choose another pro.`);
    }
    const now = new Date(nowMs).toISOString();
    const expiresAt = new Date(nowMs + env.OFFER_SECONDS * 1000).toISOString();
    // The timer exists before the offer is visible, as dispatch does: an offer is never left without its expiry.
    await scheduleOnce({
      name: timerNames.ownerOffer(job.id, worker.id, job.version),
      at: new Date(expiresAt),
      functionName: 'expire-offer',
      input: { jobId: job.id, workerId: worker.id } satisfies OfferTimerInput,
    });
    if (await ownerJobs.offerTo(job, worker.id, expiresAt, ownerActor(owner), now)) {
      logger.info('Job offered by the owner', { jobId: job.id, workerId: worker.id });
      await jobOffered(job, [worker.id]);
      return;
    }
  }
  throw changedUnderfoot(await jobsRepo.findById(id));
}

/** Cancels a job nobody has started working on, with the owner's message to the customer. */
export async function cancelJob(id: string, message: string, owner: OwnerCaller): Promise<void> {
  let seenState: JobItem['state'] | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const job = await jobOrThrow(id);
    if (seenState && job.state !== seenState) throw changedUnderfoot(job);
    seenState = job.state;
    if (!OWNER_CANCELLABLE.includes(job.state)) throw notCancellable(job);
    if (!(await ownerJobs.cancel(job, message, ownerActor(owner), new Date().toISOString()))) continue;
    const offeredTo = Object.keys(job.offers ?? {});
    const cycle = dispatchCycle(job);
    await cancelOfferTimers(job.id, offeredTo, cycle);
    await jobsRepo.dropOffers(job.id, offeredTo);
    if (job.acceptedBy) await cancelArrival(job.id, job.acceptedBy, cycle);
    logger.info('Job cancelled by the owner', { jobId: job.id, heldBy: job.acceptedBy ?? undefined });
    await jobCancelledByOwner(job, message, offeredTo, job.acceptedBy);
    return;
  }
  throw changedUnderfoot(await jobsRepo.findById(id));
}
