import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { formatDateTime } from './date-time';
import { isServerUnreachable, subscribeServerReachability } from './server-reachability';

/**
 * Whether the browser has a network and the server answers (lib/server-reachability.ts), for the
 * screens that keep working without one (the worker dashboard). TanStack Query hears the browser's online/offline events but starts out assuming
 * online; a page opened offline (the installed app without signal) tells it the truth here, when
 * the screens that import this load and before their queries run, so queries wait for the network
 * instead of failing one after another.
 */
if (typeof navigator !== 'undefined' && navigator.onLine === false) onlineManager.setOnline(false);

function subscribe(listener: () => void) {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  const stopHearingServer = subscribeServerReachability(listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
    stopHearingServer();
  };
}

/** The browser says it has a network, and the app's last call to the server got an answer. */
export function isOnline(): boolean {
  return (typeof navigator === 'undefined' || navigator.onLine !== false) && !isServerUnreachable();
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}

/**
 * The offline banner's words: what is shown and what cannot be done. `savedAt` is when the jobs on
 * screen were last loaded (null when this device never loaded them).
 */
export function offlineBannerText(savedAt: Date | null, now: Date, locale?: string): { title: string; detail: string } {
  const title = 'You are offline';
  if (!savedAt) {
    return { title, detail: 'No jobs were saved on this device yet. Reconnect to see your offers and jobs.' };
  }
  const sameDay = savedAt.toDateString() === now.toDateString();
  const when = formatDateTime(savedAt, sameDay ? 'time' : 'date-time', locale);
  return {
    title,
    detail: `Showing your jobs as last loaded ${sameDay ? 'at' : 'on'} ${when}, read-only. Accepting, passing and clocking in or out need a connection.`,
  };
}
