import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../../../shared/schemas/config';
import type { InvoiceView } from '../../../../shared/schemas/invoice';
import type { CompletedJobView, JobOfferView, WorkerJobView } from '../../../../shared/schemas/job';
import { ApiError } from '../../lib/api';
import { readSavedJobs, saveJobs, type SavedJobList } from '../../lib/offline-jobs';
import { isOnline } from '../../lib/offline-status';
import { useLivePollInterval } from '../../lib/realtime';
import { isUnauthorized, workerCall } from './worker-api';

/**
 * The worker's job calls (spec section 7, "Jobs"), with the spec's polling intervals (section 9),
 * which slow to a fallback while /ws is connected for held jobs: their changes arrive as live events
 * that refetch at once (jobs-tab.tsx, job-detail-page.tsx). New offers refetch at once too.
 */
export const OFFERS_INTERVAL_MS = 10_000;
export const HELD_JOBS_INTERVAL_MS = 5_000;
export const JOB_INTERVAL_MS = 5_000;
/** After Complete Job the dashboard opens (spec section 9). */
export const COMPLETE_REDIRECT_MS = 2_000;

const enc = encodeURIComponent;

export const jobKeys = {
  offers: (workerId: string) => ['/api/jobs/offers', workerId] as const,
  held: (workerId: string) => ['/api/jobs/worker', workerId] as const,
  job: (id: string) => ['/api/jobs', id] as const,
  completed: (workerId: string) => ['/api/jobs/completed', workerId] as const,
  config: ['/api/config'] as const,
  /** The worker's own invoices; 'worker' keeps them apart from a customer's list in the same cache. */
  invoices: (workerId: string) => ['/api/invoices', 'worker', workerId] as const,
};

export const jobUrls = {
  offers: (workerId: string) => `/api/jobs/offers/${enc(workerId)}`,
  held: (workerId: string) => `/api/jobs/worker/${enc(workerId)}`,
  job: (id: string) => `/api/jobs/${enc(id)}`,
  completed: (workerId: string) => `/api/jobs/completed/${enc(workerId)}`,
  accept: (jobId: string) => `/api/jobs/accept/${enc(jobId)}`,
  decline: (jobId: string) => `/api/jobs/decline/${enc(jobId)}`,
  state: (id: string) => `/api/jobs/${enc(id)}/state`,
  complete: (id: string) => `/api/jobs/${enc(id)}/complete`,
  invoice: (id: string) => `/api/jobs/${enc(id)}/invoice`,
  invoices: '/api/invoices',
  location: '/api/workers/location',
};

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** A 401 has already ended the session (workerCall); polling on would only repeat it. */
function pollUnlessSignedOut(intervalMs: number) {
  return (query: { state: { error: unknown } }) => (isUnauthorized(query.state.error) ? false : intervalMs);
}

/**
 * A list query that keeps its last answer on this device; opened without a network, it starts from
 * that copy (read-only on screen) instead of waiting for one. Online it starts empty, as before.
 */
function savedListOptions<T>(list: SavedJobList, workerId: string, url: string) {
  const saved = () => (isOnline() ? null : readSavedJobs<T>(list, workerId));
  return {
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const items = await workerCall<T[]>('GET', url, undefined, signal);
      saveJobs(list, workerId, items);
      return items;
    },
    initialData: () => saved()?.items,
    initialDataUpdatedAt: () => {
      const at = saved()?.savedAt;
      return at ? Date.parse(at) : undefined;
    },
  };
}

export function useJobOffers(workerId: string) {
  return useQuery<JobOfferView[]>({
    queryKey: jobKeys.offers(workerId),
    ...savedListOptions<JobOfferView>('offers', workerId, jobUrls.offers(workerId)),
    enabled: Boolean(workerId),
    // Not slowed: an offer taken by another pro or withdrawn has no live event, and it lasts 2 minutes.
    refetchInterval: pollUnlessSignedOut(OFFERS_INTERVAL_MS),
    staleTime: 0,
  });
}

export function useHeldJobs(workerId: string) {
  const interval = useLivePollInterval(HELD_JOBS_INTERVAL_MS);
  return useQuery<WorkerJobView[]>({
    queryKey: jobKeys.held(workerId),
    ...savedListOptions<WorkerJobView>('held', workerId, jobUrls.held(workerId)),
    enabled: Boolean(workerId),
    refetchInterval: pollUnlessSignedOut(interval),
    staleTime: 0,
  });
}

export function useWorkerJob(id: string, enabled: boolean) {
  const interval = useLivePollInterval(JOB_INTERVAL_MS);
  return useQuery<WorkerJobView>({
    queryKey: jobKeys.job(id),
    queryFn: ({ signal }) => workerCall<WorkerJobView>('GET', jobUrls.job(id), undefined, signal),
    enabled: enabled && Boolean(id),
    // A job that is gone (reassigned, or never this worker's) stays gone: stop asking.
    refetchInterval: (query) => (isNotFound(query.state.error) || isUnauthorized(query.state.error) ? false : interval),
    staleTime: 0,
  });
}

export function useCompletedJobs(workerId: string) {
  return useQuery<CompletedJobView[]>({
    queryKey: jobKeys.completed(workerId),
    queryFn: ({ signal }) => workerCall<CompletedJobView[]>('GET', jobUrls.completed(workerId), undefined, signal),
    enabled: Boolean(workerId),
    staleTime: 0,
  });
}

/** GET /api/invoices with the worker's token: their own invoices, with payment and payout states. */
export function useWorkerInvoices(workerId: string, enabled = true) {
  return useQuery<InvoiceView[]>({
    queryKey: jobKeys.invoices(workerId),
    queryFn: ({ signal }) => workerCall<InvoiceView[]>('GET', jobUrls.invoices, undefined, signal),
    enabled: enabled && Boolean(workerId),
    staleTime: 0,
  });
}

/** Public: the fee rate and support address every screen shows the same. */
export function usePublicConfig() {
  return useQuery<PublicConfig>({ queryKey: jobKeys.config });
}
