import { useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '../../../../shared/schemas/config';
import type { InvoiceView } from '../../../../shared/schemas/invoice';
import type { CompletedJobView, JobOfferView, WorkerJobView } from '../../../../shared/schemas/job';
import { ApiError, NetworkError } from '../../lib/api';
import { readSavedJobs, saveJobs, type SavedJobList } from '../../lib/offline-jobs';
import { isOnline } from '../../lib/offline-status';
import { useLivePollInterval } from '../../lib/realtime';
import type { ApiKey, GetEndpoint } from '../../lib/endpoint';
import { queryKeys } from '../../lib/query-keys';
import { isUnauthorized, workerGet } from './worker-api';

/**
 * The worker's job calls, with their polling intervals (offers 10 s, held jobs and one job 5 s),
 * which slow to a fallback while /ws is connected for held jobs: their changes arrive as live events
 * that refetch at once (jobs-tab.tsx, job-detail-page.tsx). New offers refetch at once too.
 */
export const OFFERS_INTERVAL_MS = 10_000;
export const HELD_JOBS_INTERVAL_MS = 5_000;
export const JOB_INTERVAL_MS = 5_000;
/** After Complete Job the dashboard opens, 2 s later so the success can be read. */
export const COMPLETE_REDIRECT_MS = 2_000;

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
 * A call that gets no answer is offline too, though the browser may not know it yet (it can say
 * online on a page its service worker served from the cache): that copy stands in for the answer.
 */
function savedListOptions<T>(list: SavedJobList, workerId: string, queryKey: ApiKey<GetEndpoint>) {
  const saved = () => (isOnline() ? null : readSavedJobs<T>(list, workerId));
  return {
    queryKey,
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      let items: T[];
      try {
        items = (await workerGet(queryKey, signal)) as T[];
      } catch (error) {
        const kept = error instanceof NetworkError ? readSavedJobs<T>(list, workerId) : null;
        if (kept) return kept.items;
        throw error;
      }
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
    ...savedListOptions<JobOfferView>('offers', workerId, queryKeys.jobOffers(workerId)),
    enabled: Boolean(workerId),
    // Not slowed: an offer taken by another pro or withdrawn has no live event, and it lasts 2 minutes.
    refetchInterval: pollUnlessSignedOut(OFFERS_INTERVAL_MS),
    staleTime: 0,
  });
}

export function useHeldJobs(workerId: string) {
  const interval = useLivePollInterval(HELD_JOBS_INTERVAL_MS);
  return useQuery<WorkerJobView[]>({
    ...savedListOptions<WorkerJobView>('held', workerId, queryKeys.heldJobs(workerId)),
    enabled: Boolean(workerId),
    refetchInterval: pollUnlessSignedOut(interval),
    staleTime: 0,
  });
}

export function useWorkerJob(id: string, enabled: boolean) {
  const interval = useLivePollInterval(JOB_INTERVAL_MS);
  return useQuery<WorkerJobView>({
    queryKey: queryKeys.job(id),
    queryFn: ({ signal }) => workerGet(queryKeys.job(id), signal),
    enabled: enabled && Boolean(id),
    // A job that is gone (reassigned, or never this worker's) stays gone: stop asking.
    refetchInterval: (query) => (isNotFound(query.state.error) || isUnauthorized(query.state.error) ? false : interval),
    staleTime: 0,
  });
}

export function useCompletedJobs(workerId: string) {
  return useQuery<CompletedJobView[]>({
    queryKey: queryKeys.completedJobs(workerId),
    queryFn: ({ signal }) => workerGet(queryKeys.completedJobs(workerId), signal),
    enabled: Boolean(workerId),
    staleTime: 0,
  });
}

/** GET /api/invoices with the worker's token: their own invoices, with payment and payout states. */
export function useWorkerInvoices(workerId: string, enabled = true) {
  return useQuery<InvoiceView[]>({
    queryKey: queryKeys.workerInvoices(workerId),
    queryFn: ({ signal }) => workerGet(queryKeys.workerInvoices(workerId), signal),
    enabled: enabled && Boolean(workerId),
    staleTime: 0,
  });
}

/** Public: the fee rate and support address every screen shows the same. */
export function usePublicConfig() {
  return useQuery<PublicConfig>({ queryKey: queryKeys.config });
}
