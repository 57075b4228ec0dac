import { arrivalDeadline } from '../shared/domain/arrival';
import { dispatchIndex } from './lib/data/dispatch-index';
import { jobsRepo } from './lib/data/jobs';
import { workersRepo } from './lib/data/workers';
import { dispatchSettings, offerNext, rescheduleArrival, waitForAnswer } from './lib/dispatch';
import { jobReassigned } from './lib/job-events';
import { logger } from './lib/logger';
import { jobTimerInput, timer } from './lib/timer';

const CLOCK_MARGIN_MS = 2000;

/**
 * The 45-minute rule: a worker who accepted and has not arrived by arriveBy loses the job, which
 * goes back to dispatch, and gets a strike; at 2 strikes they are terminated. Arrived means proven
 * (a fix near the job, or the customer's yes): a claim the customer has not confirmed does not stop
 * it. Fired twice, or after the worker arrived, it changes nothing (every write is conditional on
 * what it read).
 */
export const handler = timer('enforce-arrival', jobTimerInput, async ({ jobId, workerId }) => {
  const job = await jobsRepo.findById(jobId);
  if (!job || job.acceptedBy !== workerId || (job.state !== 'accepted' && job.state !== 'en_route')) return;
  if (!job.arriveBy) return;
  if (Date.parse(job.arriveBy) > Date.now() + CLOCK_MARGIN_MS) return rescheduleArrival(job, workerId);
  // A claim made in time gives the customer a few minutes to answer it; after that, or without one,
  // an unproven arrival is a late one, pending claim or not.
  const claim = job.arrivalClaim?.workerId === workerId ? job.arrivalClaim : undefined;
  const deadline = arrivalDeadline(job.arriveBy, claim);
  if (deadline > Date.now() + CLOCK_MARGIN_MS) return waitForAnswer(job, workerId, deadline);
  const worker = await workersRepo.findById(workerId);
  if (!worker) return;
  const { strikesToTerminate } = dispatchSettings();
  const reassigned = await jobsRepo.reassignLate({
    jobId,
    workerId,
    strikesBefore: worker.strikes,
    strikesToTerminate,
    now: new Date().toISOString(),
  });
  if (!reassigned) return;
  const strikes = worker.strikes + 1;
  logger.info('Late arrival: job reassigned, strike given', { jobId, workerId, strikes, terminated: strikes >= strikesToTerminate });
  const after = await workersRepo.findById(workerId);
  if (after) await dispatchIndex.sync(after);
  await jobReassigned(job, workerId, strikes >= strikesToTerminate);
  await offerNext(jobId);
});
