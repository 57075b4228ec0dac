import { useSyncExternalStore } from 'react';
import { workerTypes, type WorkerType } from '../../../../shared/domain/worker-types';
import type { WorkerSelf } from '../../../../shared/schemas/worker';
import { WORKER_TOKEN_KEY, workerTokenChanged } from '../../lib/worker-token';

/**
 * The worker's session in local storage, so it survives a reload and is shared by tabs: the bearer
 * token under 'workerToken', the worker's own view as JSON under 'worker', and the chosen worker
 * type under 'workerType'.
 * Screens read it through useWorkerSession(), which re-renders on every change, in this tab or
 * another one.
 */
export { WORKER_TOKEN_KEY };
export const WORKER_KEY = 'worker';
export const WORKER_TYPE_KEY = 'workerType';

export interface WorkerSession {
  token: string | null;
  worker: WorkerSelf | null;
}

const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

function read(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    const s = storage();
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // Private mode or a full quota: the session lives for this page only.
  }
}

function parseWorker(raw: string | null): WorkerSelf | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string') return value as WorkerSelf;
  } catch {
    // A damaged entry counts as no worker.
  }
  return null;
}

// One snapshot object per stored state, so useSyncExternalStore sees a stable value.
let cachedRaw: [string | null, string | null] = [null, null];
let cachedSession: WorkerSession = { token: null, worker: null };

export function getWorkerSession(): WorkerSession {
  const token = read(WORKER_TOKEN_KEY);
  const rawWorker = read(WORKER_KEY);
  if (token !== cachedRaw[0] || rawWorker !== cachedRaw[1]) {
    cachedRaw = [token, rawWorker];
    cachedSession = { token, worker: parseWorker(rawWorker) };
  }
  return cachedSession;
}

function notify(): void {
  for (const listener of listeners) listener();
  // The realtime socket (lib) connects with the token: it hears about sign-in and sign-out here.
  workerTokenChanged();
}

export function saveWorkerSession(worker: WorkerSelf, token: string): void {
  write(WORKER_TOKEN_KEY, token);
  write(WORKER_KEY, JSON.stringify(worker));
  notify();
}

/** Keeps the stored worker in step with the latest answer from the API. */
export function updateStoredWorker(worker: WorkerSelf): void {
  if (!read(WORKER_TOKEN_KEY)) return;
  const json = JSON.stringify(worker);
  if (read(WORKER_KEY) === json) return;
  write(WORKER_KEY, json);
  notify();
}

export function clearWorkerSession(): void {
  write(WORKER_TOKEN_KEY, null);
  write(WORKER_KEY, null);
  notify();
}

export function getSavedWorkerType(): WorkerType | null {
  const value = read(WORKER_TYPE_KEY);
  return (workerTypes as readonly string[]).includes(value ?? '') ? (value as WorkerType) : null;
}

export function saveWorkerType(type: WorkerType): void {
  write(WORKER_TYPE_KEY, type);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === WORKER_TOKEN_KEY || event.key === WORKER_KEY || event.key === WORKER_TYPE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const serverSnapshot: WorkerSession = { token: null, worker: null };

export function useWorkerSession(): WorkerSession {
  return useSyncExternalStore(subscribe, getWorkerSession, () => serverSnapshot);
}

export function useSavedWorkerType(): WorkerType | null {
  return useSyncExternalStore(subscribe, getSavedWorkerType, () => null);
}
