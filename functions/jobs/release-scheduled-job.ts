import { jobsRepo } from './data/jobs';
import { offerNext } from './dispatch';
import { logger } from '../common/logger';
import { timer } from '../common/timer';
import { scheduledTimerInput } from './scheduled-timer-input';

/**
 * A scheduled job's offers open (a day before its start): dispatch offers it as it offers any job,
 * with the longer offers of a scheduled one. A job that was cancelled, taken or moved to another
 * start meanwhile is left alone (a reschedule made its own timer). Fired twice, the second finds
 * the offers already standing and adds none: every offer is a write conditional on the version read.
 */
export const handler = timer('release-scheduled-job', scheduledTimerInput, async ({ jobId, start }) => {
  const job = await jobsRepo.findById(jobId);
  if (!job || job.requestedTime !== start || (job.state !== 'booked' && job.state !== 'offered')) return;
  logger.info('Scheduled job released to dispatch', { jobId });
  await offerNext(jobId);
});
