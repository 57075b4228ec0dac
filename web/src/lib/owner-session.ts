import { useSyncExternalStore } from 'react';

/**
 * Whether this tab has heard that its visitor is the signed-in owner (their session cookie is
 * HttpOnly, so only the admin status call can tell). Set wherever that status is read
 * (admin-status.ts); read by the frame to decide whether the realtime corner is worth loading,
 * without bringing the query client into the first load.
 */
let owner = false;
const listeners = new Set<() => void>();

export function ownerStatusHeard(isAdmin: boolean): void {
  if (isAdmin === owner) return;
  owner = isAdmin;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOwnerSignedIn(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => owner,
    () => false,
  );
}
