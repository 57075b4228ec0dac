import { readSignedInWorker, subscribeWorkerToken } from './worker-token';

/**
 * The worker's last loaded offers and held jobs, kept in this browser so the installed app shows
 * them, read-only, when it opens without a network. One copy per list, tagged with the
 * worker it belongs to and when it was loaded; it is never shown to anyone else signed in here,
 * and it is removed when the worker signs out. Not kept by the service worker: its cache cannot
 * tell one signed-in worker's answers from another's.
 */
export type SavedJobList = 'offers' | 'held';

const KEY_PREFIX = 'fixly.lastJobs.';

export interface SavedJobs<T> {
  workerId: string;
  savedAt: string;
  items: T[];
}

export function savedJobsKey(list: SavedJobList): string {
  return KEY_PREFIX + list;
}

/** The stored copy when it is `workerId`'s and well formed; null otherwise. */
export function parseSavedJobs<T>(raw: string | null, workerId: string): SavedJobs<T> | null {
  if (!raw || !workerId) return null;
  try {
    const value = JSON.parse(raw) as Partial<SavedJobs<T>>;
    if (value.workerId !== workerId || !Array.isArray(value.items) || typeof value.savedAt !== 'string') return null;
    if (Number.isNaN(Date.parse(value.savedAt))) return null;
    return { workerId, savedAt: value.savedAt, items: value.items };
  } catch {
    return null;
  }
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function saveJobs<T>(list: SavedJobList, workerId: string, items: T[], now = new Date()): void {
  if (!workerId) return;
  try {
    storage()?.setItem(savedJobsKey(list), JSON.stringify({ workerId, savedAt: now.toISOString(), items } satisfies SavedJobs<T>));
  } catch {
    // Full or blocked storage: the app still works online, only without the offline copy.
  }
}

/** The signed-in worker's saved copy of a list (never another worker's). */
export function readSavedJobs<T>(list: SavedJobList, workerId: string): SavedJobs<T> | null {
  if (readSignedInWorker()?.id !== workerId) return null;
  try {
    return parseSavedJobs<T>(storage()?.getItem(savedJobsKey(list)) ?? null, workerId);
  } catch {
    return null;
  }
}

export function clearSavedJobs(): void {
  try {
    const store = storage();
    store?.removeItem(savedJobsKey('offers'));
    store?.removeItem(savedJobsKey('held'));
  } catch {
    // Nothing to clear.
  }
}

/** The older of the two lists' load times: the banner says how old the screen may be. */
export function oldestSavedAt(workerId: string): Date | null {
  const times = (['offers', 'held'] as const)
    .map((list) => readSavedJobs(list, workerId)?.savedAt)
    .filter((time): time is string => Boolean(time))
    .map((time) => new Date(time));
  if (!times.length) return null;
  return times.reduce((a, b) => (a < b ? a : b));
}

// Signing out (here or in another tab) removes the copy, whoever's it was.
if (typeof window !== 'undefined') {
  subscribeWorkerToken(() => {
    if (!readSignedInWorker()) clearSavedJobs();
  });
}
