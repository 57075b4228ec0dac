import { jobsRepo } from './data/jobs';
import { logger } from '../common/logger';
import { reminderTimerInput } from './scheduled-timer-input';
import { reminderDue } from './schedule-events';
import { timer } from '../common/timer';

/**
 * A day or an hour before a scheduled job's start: the customer and the pro who accepted are
 * reminded, once. The write that records it is conditional on the job still starting at the time
 * the timer was made for, not cancelled or finished, and on this reminder not yet sent for that
 * start, so a timer delivered twice, or one left over from before a reschedule or a cancel, sends nothing.
 */
export const handler = timer('send-job-reminder', reminderTimerInput, async ({ jobId, start, kind }) => {
  const job = await jobsRepo.markReminded(jobId, kind, start, new Date().toISOString());
  if (!job) return;
  logger.info('Reminder sent', { jobId, kind });
  await reminderDue(job, kind);
});
