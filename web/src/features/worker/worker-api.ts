import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import type { WorkerSelf } from '../../../../shared/schemas/worker';
import { toast } from '../../components/ui/toast-store';
import { ApiError, api, apiGetKey, type CallOptions } from '../../lib/api';
import type { ApiKey, Endpoint, GetEndpoint, PartsArg, ResponseAt } from '../../lib/endpoint';
import { queryKeys } from '../../lib/query-keys';
import { paths } from '../../lib/paths';
import { clearWorkerSession, getWorkerSession, updateStoredWorker, useWorkerSession } from './session';

/** GET /api/workers/me is refetched every 15 s, so an approval or a strike shows without reloading. */
export const WORKER_ME_INTERVAL_MS = 15_000;

export function isUnauthorized(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

async function endingSessionOn401<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (isUnauthorized(error)) clearWorkerSession();
    throw error;
  }
}

/** A call (lib/api.ts's `api`) with the stored bearer token. A 401 ends the stored session. */
export function workerCall<E extends Endpoint>(endpoint: E, ...[parts]: PartsArg<E, { signal?: AbortSignal }>): Promise<ResponseAt<E>> {
  const withToken = [{ ...parts, token: getWorkerSession().token }] as unknown as PartsArg<E, CallOptions>;
  return endingSessionOn401(api(endpoint, ...withToken));
}

/** A query's GET of what its key names, with the stored bearer token. A 401 ends the stored session. */
export function workerGet<E extends GetEndpoint>(queryKey: ApiKey<E>, signal?: AbortSignal): Promise<ResponseAt<E>> {
  return endingSessionOn401(apiGetKey(queryKey, { token: getWorkerSession().token, signal }));
}

/** Stores a fresh answer about the worker: in the query cache and in local storage. */
export function rememberWorker(queryClient: QueryClient, worker: WorkerSelf): void {
  queryClient.setQueryData(queryKeys.workerMe, worker);
  updateStoredWorker(worker);
}

/**
 * The signed-in worker, refetched every 15 s; the stored copy shows until the first answer.
 * A 401 clears the stored session (the screens then send the visitor to /worker/login).
 */
export function useWorkerMe() {
  const { token, worker } = useWorkerSession();
  const query = useQuery<WorkerSelf>({
    queryKey: queryKeys.workerMe,
    queryFn: ({ signal }) => apiGetKey(queryKeys.workerMe, { token, signal }),
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
      queryClient.removeQueries({ queryKey: queryKeys.workerMe });
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
    if (token) await api('POST /api/workers/logout', { token }).catch(() => undefined);
    clearWorkerSession();
    queryClient.removeQueries({ queryKey: queryKeys.workerMe });
    toast({ title: 'Logged Out', description: 'You have been signed out.' });
    void navigate(paths.workerLogin, { replace: true });
  }, [navigate, queryClient]);
}
