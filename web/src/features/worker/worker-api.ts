import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import type { WorkerSelf } from '../../../../shared/schemas/worker';
import { toast } from '../../components/ui/toast-store';
import { ApiError, apiRequest } from '../../lib/api';
import { paths } from '../../lib/paths';
import { clearWorkerSession, getWorkerSession, updateStoredWorker, useWorkerSession } from './session';

/** GET /api/workers/me is refetched every 15 s (spec section 9). */
export const WORKER_ME_INTERVAL_MS = 15_000;
export const workerMeKey = ['/api/workers/me'] as const;

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** A worker call with the stored bearer token (spec section 6). A 401 ends the stored session. */
export async function workerCall<T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const { token } = getWorkerSession();
  try {
    return await apiRequest<T>(method, url, body, { token, signal });
  } catch (error) {
    if (isUnauthorized(error)) clearWorkerSession();
    throw error;
  }
}

/** Stores a fresh answer about the worker: in the query cache and in local storage. */
export function rememberWorker(queryClient: QueryClient, worker: WorkerSelf): void {
  queryClient.setQueryData(workerMeKey, worker);
  updateStoredWorker(worker);
}

/**
 * The signed-in worker, refetched every 15 s; the stored copy shows until the first answer.
 * A 401 clears the stored session (the screens then send the visitor to /worker/login).
 */
export function useWorkerMe() {
  const { token, worker } = useWorkerSession();
  const query = useQuery<WorkerSelf>({
    queryKey: workerMeKey,
    queryFn: ({ signal }) => apiRequest<WorkerSelf>('GET', workerMeKey[0], undefined, { token, signal }),
    enabled: Boolean(token),
    refetchInterval: WORKER_ME_INTERVAL_MS,
    staleTime: 0,
    placeholderData: worker ?? undefined,
  });
  const queryClient = useQueryClient();
  useEffect(() => {
    if (query.data && !query.isPlaceholderData) updateStoredWorker(query.data);
  }, [query.data, query.isPlaceholderData]);
  useEffect(() => {
    if (isUnauthorized(query.error)) {
      clearWorkerSession();
      queryClient.removeQueries({ queryKey: workerMeKey });
    }
  }, [query.error, queryClient]);
  return query;
}

/** POST /api/workers/logout, then forget the session here whatever the answer. */
export function useWorkerLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    const { token } = getWorkerSession();
    if (token) await apiRequest('POST', '/api/workers/logout', undefined, { token }).catch(() => undefined);
    clearWorkerSession();
    queryClient.removeQueries({ queryKey: workerMeKey });
    toast({ title: 'Logged Out', description: 'You have been signed out.' });
    void navigate(paths.workerLogin, { replace: true });
  }, [navigate, queryClient]);
}

export function formatDollars(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(cents / 100);
}

export function formatDateTime(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
