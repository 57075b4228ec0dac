import { useSyncExternalStore } from 'react';

/**
 * Whether this browser's customer has sent a request. The customer cookie is HttpOnly, and the
 * server refuses a socket without any identity, so a customer connects only once their list of
 * requests has said there is one (the connection is only for someone the server knows).
 * Kept in local storage so the socket follows them to every page; an empty list clears it.
 */
const KEY = 'fixly.customerHasRequests';
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return typeof window !== 'undefined' && window.localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberCustomerRequests(count: number): void {
  const has = count > 0;
  if (has === read()) return;
  try {
    if (has) window.localStorage.setItem(KEY, '1');
    else window.localStorage.removeItem(KEY);
  } catch {
    // Private mode: the socket then waits for the list on each page load.
  }
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useCustomerHasRequests(): boolean {
  return useSyncExternalStore(subscribe, read, () => false);
}
