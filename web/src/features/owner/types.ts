/** The admin calls' answers, as the handlers define them in shared/ (money in cents). */
export type {
  Analytics,
  CompanyApplicationView as CompanyApplicationSummary,
  JobAdminView as AdminJob,
  PendingWorkerView as PendingWorker,
  WorkerDocument as ApplicationDocument,
} from '../../../../shared/schemas/admin';
export type { WorkerAdminView as AdminWorker } from '../../../../shared/schemas/worker';

/** How often the owner's lists are polled: what awaits review (applications, documents) 10 s, workers 15 s, jobs 5 s. */
export const pollMs = { pending: 10_000, workers: 15_000, jobs: 5_000 } as const;
