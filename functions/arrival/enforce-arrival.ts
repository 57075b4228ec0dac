import { arrivalDeadline } from '../../shared/domain/arrival';
import { distanceKm } from '../../shared/domain/geo';
import type { StrikeEvidence } from '../../shared/schemas/strikes';
import { dispatchIndex } from '../jobs/data/dispatch-index';
import { jobLocationsRepo } from '../jobs/data/job-locations';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import { newPenalty } from './data/penalties';
import { workersRepo, type WorkerItem } from '../workers/data/workers';
import { dispatchSettings, offerNext, rescheduleArrival, waitForAnswer } from '../jobs/dispatch';
import { jobReassigned } from '../jobs/job-events';
import { logger } from '../common/logger';
import { strikeRecorded } from '../owner/owner-events';
import { strikeMailFor } from './strikes';
import { jobTimerInput, timer } from '../common/timer';

const CLOCK_MARGIN_MS = 2000;

/**
 * Giving the strike is conditional on the count read; an owner voiding another strike of the same
 * pro at that moment changes it, so the timer reads again rather than lose the strike.
 */
const STRIKE_ATTEMPTS = 3;

export const SUSPENDED_BY_STRIKES = 'You reached 2 strikes for late arrivals. Your account is suspended until the owner reviews your record.';

/**
 * The 45-minute rule: a worker who accepted and has not arrived by arriveBy loses the job, which
 * goes back to dispatch, and gets a strike, recorded with the evidence the timer saw (their last
 * fix and its distance from the address, the deadline, a claim left waiting); at 2 strikes that
 * count they are suspended until the owner decides. Arrived means proven (a fix near the job, or the
 * customer's yes): a claim the customer has not confirmed does not stop it. Fired twice, or after
 * the worker arrived, it changes nothing (every write is conditional on what it read).
 */
export const handler = timer('enforce-arrival', jobTimerInput, async ({ jobId, workerId }) => {
  const job = await jobsRepo.findById(jobId);
  if (!isLateHolder(job, workerId)) return;
  if (Date.parse(job.arriveBy) > Date.now() + CLOCK_MARGIN_MS) return rescheduleArrival(job, workerId);
  // A claim made in time gives the customer a few minutes to answer it; after that, or without one,
  // an unproven arrival is a late one, pending claim or not.
  const claim = job.arrivalClaim?.workerId === workerId ? job.arrivalClaim : undefined;
  const deadline = arrivalDeadline(job.arriveBy, claim);
  if (deadline > Date.now() + CLOCK_MARGIN_MS) return waitForAnswer(job, workerId, deadline);

  const { strikesToSuspend } = dispatchSettings();
  let held: JobItem & { arriveBy: string } = job;
  for (let attempt = 1; attempt <= STRIKE_ATTEMPTS; attempt++) {
    const worker = await workersRepo.findCurrent(workerId);
    if (!worker) return;
    const now = new Date().toISOString();
    const penalty = newPenalty({ workerId, workerName: worker.fullName, jobId, at: now, reason: 'late_arrival', evidence: await evidenceOf(held, worker) });
    const outcome = await jobsRepo.reassignLate({
      jobId,
      workerId,
      strikesBefore: worker.strikes,
      statusBefore: worker.status,
      strikesToSuspend,
      penalty,
      suspendReason: SUSPENDED_BY_STRIKES,
      now,
      // The pro's mail about the strike, in the same write as the strike.
      strikeMail: strikeMailFor(worker, held, penalty, strikesToSuspend),
    });
    if (outcome) {
      logger.info('Late arrival: job reassigned, strike given', { jobId, workerId, strikeId: penalty.id, strikes: outcome.strikes, suspended: outcome.suspended });
      const after = await workersRepo.findCurrent(workerId);
      if (after) await dispatchIndex.sync(after);
      await jobReassigned(job, workerId, outcome.suspended);
      await strikeRecorded({ workerId, workerName: worker.fullName, reason: outcome.suspended ? 'late arrival; suspended at 2 strikes' : 'late arrival', jobId });
      await offerNext(jobId);
      return;
    }
    // Refused: either the job moved on (arrived, reassigned already: nothing to do) or the pro's
    // count or status changed since it was read (read again).
    const again = await jobsRepo.findById(jobId);
    if (!isLateHolder(again, workerId)) return;
    held = again;
  }
  logger.warn('Late arrival: the strike kept meeting other changes; the timer will be retried', { jobId, workerId });
  throw new Error('Late arrival strike not written');
});

function isLateHolder(job: JobItem | undefined, workerId: string): job is JobItem & { arriveBy: string } {
  return Boolean(job && job.acceptedBy === workerId && (job.state === 'accepted' || job.state === 'en_route') && job.arriveBy);
}

/**
 * What the strike is kept with: the newest fix the pro shared (with the job's room while on the way,
 * or with dispatch) and how far it was from the address, the deadline, and any claim left waiting.
 */
async function evidenceOf(job: JobItem & { arriveBy: string }, worker: WorkerItem): Promise<StrikeEvidence> {
  const shared = await jobLocationsRepo.latest(job.id);
  const fixes = [
    shared && shared.workerId === worker.id ? { lat: shared.lat, lng: shared.lng, accuracy: shared.accuracy, at: shared.at, source: 'job' as const } : null,
    worker.location ? { lat: worker.location.lat, lng: worker.location.lng, accuracy: worker.location.accuracy, at: worker.location.at, source: 'dispatch' as const } : null,
  ].filter((fix) => fix !== null);
  const lastFix = fixes.sort((a, b) => Date.parse(b.at) - Date.parse(a.at))[0] ?? null;
  const position = job.latitude !== null && job.longitude !== null ? { lat: job.latitude, lng: job.longitude } : null;
  const claim = job.arrivalClaim?.workerId === worker.id ? job.arrivalClaim : undefined;
  return {
    arriveBy: job.arriveBy,
    lastFix,
    distanceM: lastFix && position ? Math.round(distanceKm(position, lastFix) * 1000) : null,
    jobHasPosition: position !== null,
    claim: claim ? { claimedAt: claim.claimedAt, reason: claim.reason, distanceM: claim.distanceM } : null,
  };
}
