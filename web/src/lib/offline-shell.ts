/** The service worker's registration (offline-app.ts loads this after the page's load event). */

export const SERVICE_WORKER_URL = '/sw.js';

/**
 * What the page had already loaded before the service worker controlled it (the first visit's
 * document, scripts and styles), for it to keep, so an app installed on that visit opens offline.
 * Same-origin only; the worker applies its own rules on top.
 */
export function loadedUrls(): string[] {
  const here = new URL(location.href);
  here.hash = '';
  const entries = performance.getEntriesByType('resource').map((entry) => entry.name);
  return [here.href, ...entries].filter((url) => url.startsWith(`${location.origin}/`));
}

/** Asks the controlling service worker to keep `urls`; resolves when it has. */
export function cacheLoadedPages(urls: string[] = loadedUrls()): Promise<void> {
  const controller = navigator.serviceWorker?.controller;
  if (!controller) return Promise.resolve();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    controller.postMessage({ type: 'cache-urls', urls }, [channel.port2]);
  });
}

export function registerServiceWorker(controlledAtStart: boolean): void {
  if (!controlledAtStart) {
    navigator.serviceWorker.addEventListener('controllerchange', () => void cacheLoadedPages(), { once: true });
  }
  navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => {
    // No service worker (blocked, private mode): the site works as before, only without offline.
  });
}
