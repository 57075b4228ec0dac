import { isWithinLastWeek } from '../../../../shared/domain/earnings';
import type { CompletedJobView } from '../../../../shared/schemas/job';

export interface EarningsSummary {
  /** Sum of the worker's shares, cents. */
  totalCents: number;
  /** Sum of the shares of jobs that ended in the last 7 days, cents. */
  weekCents: number;
  jobsCompleted: number;
  /** Newest first. */
  history: CompletedJobView[];
}

/** The earnings page's figures, all from the worker's share (after the platform fee), never the job's full amount. */
export function summarizeEarnings(jobs: readonly CompletedJobView[], now = Date.now()): EarningsSummary {
  let totalCents = 0;
  let weekCents = 0;
  for (const job of jobs) {
    totalCents += job.workerShare;
    if (isWithinLastWeek(job.endedAt, now)) weekCents += job.workerShare;
  }
  const history = [...jobs].sort((a, b) => (Date.parse(b.endedAt) || 0) - (Date.parse(a.endedAt) || 0));
  return { totalCents, weekCents, jobsCompleted: jobs.length, history };
}
