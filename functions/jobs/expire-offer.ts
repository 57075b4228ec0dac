import { jobsRepo } from './data/jobs';
import { offerNext } from './dispatch';
import { logger } from '../common/logger';
import { jobTimerInput, timer } from '../common/timer';

/** Schedules fire at the whole second after expiry; this margin absorbs clocks a little apart. */
const CLOCK_MARGIN_MS = 2000;

/**
 * An offer's time ran out: withdraw it (only if it is still there and has expired) and offer the
 * job to the next nearest worker. Fired twice, or after an accept, it finds nothing to withdraw;
 * topping up offers is itself idempotent.
 */
export const handler = timer('expire-offer', jobTimerInput, async ({ jobId, workerId }) => {
  const now = Date.now();
  const withdrawn = await jobsRepo.withdrawOffer(jobId, workerId, new Date(now).toISOString(), new Date(now + CLOCK_MARGIN_MS).toISOString());
  if (withdrawn) logger.info('Offer expired', { jobId, workerId });
  await offerNext(jobId);
});
