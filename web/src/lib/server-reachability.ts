/**
 * Whether the app's last call to the server got no answer at all. navigator.onLine is only the
 * browser's guess, and it guesses online where there is no way out: behind a captive portal, on a
 * network that lost its uplink, and in some browsers on a page the service worker answered from its
 * cache after the network went (no offline event comes then either). A call of the app's own that
 * got no answer is proof; the next call that gets any answer ends it, as does the browser's online
 * event. lib/api.ts reports every call; lib/offline-status.ts counts it as offline.
 */
let unreachable = false;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (unreachable === next) return;
  unreachable = next;
  for (const listener of listeners) listener();
}

/** A call to the server got no answer (a NetworkError). */
export function noteServerUnreachable(): void {
  set(true);
}

/** A call to the server got an answer, whatever its status. */
export function noteServerAnswered(): void {
  set(false);
}

export function isServerUnreachable(): boolean {
  return unreachable;
}

export function subscribeServerReachability(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// The browser says the network is back: the next call is worth making and says whether it is.
if (typeof window !== 'undefined') window.addEventListener('online', noteServerAnswered);
