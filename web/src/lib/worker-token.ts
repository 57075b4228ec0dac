import { useSyncExternalStore } from 'react';

/**
 * The signed-in worker's bearer token as the rest of the app may see it (the realtime socket
 * passes it as a subprotocol). The worker feature owns the session (features/worker/session.ts)
 * and calls workerTokenChanged() whenever it writes; other tabs are heard through `storage`.
 */
export const WORKER_TOKEN_KEY = 'workerToken';

const listeners = new Set<() => void>();

export function readWorkerToken(): string | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage.getItem(WORKER_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function workerTokenChanged(): void {
  for (const listener of [...listeners]) listener();
}

export function subscribeWorkerToken(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === WORKER_TOKEN_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useWorkerToken(): string | null {
  return useSyncExternalStore(subscribeWorkerToken, readWorkerToken, () => null);
}
