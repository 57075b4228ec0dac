import { useSyncExternalStore } from 'react';

/**
 * The signed-in worker as the rest of the app may see them (the realtime socket passes the token
 * as a subprotocol and registers with the id). The worker feature owns the session
 * (features/worker/session.ts: the token under 'workerToken', the worker's own view as JSON under
 * 'worker') and calls workerTokenChanged() whenever it writes; other tabs are heard via `storage`.
 */
export const WORKER_TOKEN_KEY = 'workerToken';
const WORKER_KEY = 'worker';

export interface SignedInWorker {
  token: string;
  id: string;
  /**
   * Whether the server gives this worker a socket: an active worker, and an applicant under review
   * (the owner's decision reaches their open review screen). Not approved, suspended or terminated
   * workers sign in to read their status, without one.
   */
  active: boolean;
}

const listeners = new Set<() => void>();

function read(key: string): string | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function readWorkerToken(): string | null {
  return read(WORKER_TOKEN_KEY);
}

let cachedRaw: [string | null, string | null] = [null, null];
let cached: SignedInWorker | null = null;

/** The stored worker, one object per stored state (so React sees a stable snapshot). */
export function readSignedInWorker(): SignedInWorker | null {
  const token = read(WORKER_TOKEN_KEY);
  const raw = read(WORKER_KEY);
  if (token === cachedRaw[0] && raw === cachedRaw[1]) return cached;
  cachedRaw = [token, raw];
  cached = null;
  if (token && raw) {
    try {
      const worker = JSON.parse(raw) as { id?: unknown; status?: unknown };
      if (typeof worker.id === 'string' && worker.id) {
        cached = { token, id: worker.id, active: worker.status === 'active' || worker.status === 'pending_review' };
      }
    } catch {
      // A damaged entry counts as nobody signed in.
    }
  }
  return cached;
}

export function workerTokenChanged(): void {
  for (const listener of [...listeners]) listener();
}

export function subscribeWorkerToken(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === WORKER_TOKEN_KEY || event.key === WORKER_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSignedInWorker(): SignedInWorker | null {
  return useSyncExternalStore(subscribeWorkerToken, readSignedInWorker, () => null);
}
