/** The admin calls' answers, as the handlers define them in shared/ (money in cents). */
export type {
  Analytics,
  CompanyApplicationView as CompanyApplicationSummary,
  JobAdminView as AdminJob,
  PendingWorkerView as PendingWorker,
  WorkerDocument as ApplicationDocument,
} from '../../../../shared/schemas/admin';
export type { WorkerAdminView as AdminWorker } from '../../../../shared/schemas/worker';

/**
 * How often the owner's lists are polled: what awaits review (applications, documents) 10 s, workers
 * 15 s, jobs every minute (they also refresh on focus and on an owner notification; every loaded page
 * is read again, so the jobs never poll fast).
 */
export const pollMs = { pending: 10_000, workers: 15_000, jobs: 60_000 } as const;
