import { useSyncExternalStore } from 'react';

/**
 * The installable app, from the entry chunk (main.tsx): registers the service worker (/sw.js: the
 * offline app shell and push) for every visitor once the page has loaded, so it never competes
 * with the first paint, and keeps the browser's install offer, which fires once and often before
 * the /download screen's chunk has loaded.
 */

export const SERVICE_WORKER_URL = '/sw.js';

/** Chromium's install offer (not in TypeScript's DOM library). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

interface InstallStore {
  prompt: InstallPromptEvent | null;
  /** True once the browser says the app was installed from this page (`appinstalled`). */
  installed: boolean;
}

let store: InstallStore = { prompt: null, installed: false };
const listeners = new Set<() => void>();

function setStore(next: InstallStore) {
  store = next;
  for (const listener of listeners) listener();
}

/** The install offer the browser made and whether it was installed, for the /download screen. */
export function useInstallOffer(): InstallStore {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => store,
    () => store,
  );
}

/** Shows the browser's install dialog once (the event can be used only once); the outcome. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const offer = store.prompt;
  if (!offer) return 'unavailable';
  setStore({ ...store, prompt: null });
  await offer.prompt();
  const { outcome } = await offer.userChoice;
  if (outcome === 'accepted') setStore({ prompt: null, installed: true });
  return outcome;
}

/** After the load event (or at once when it has passed), on an idle moment if the browser has one. */
function afterLoad(run: () => void) {
  const later = () => ('requestIdleCallback' in window ? window.requestIdleCallback(() => run(), { timeout: 5000 }) : setTimeout(run, 0));
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

/**
 * What the page had already loaded before the service worker controlled it (the first visit's
 * document, scripts and styles), handed to it to keep, so an app installed on that visit opens
 * offline. Same-origin only; the worker applies its own rules on top.
 */
export function loadedUrls(): string[] {
  const entries = performance.getEntriesByType('resource').map((entry) => entry.name);
  const here = new URL(location.href);
  here.hash = '';
  return [here.href, ...entries].filter((url) => url.startsWith(`${location.origin}/`));
}

/** Asks the controlling service worker to keep `urls`; resolves when it has (or could not). */
export function cacheLoadedPages(urls: string[] = loadedUrls()): Promise<void> {
  const controller = navigator.serviceWorker?.controller;
  if (!controller) return Promise.resolve();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    controller.postMessage({ type: 'cache-urls', urls }, [channel.port2]);
  });
}

export function startOfflineApp(): void {
  if (typeof window === 'undefined') return;
  window.addEventListener('beforeinstallprompt', (event) => {
    // Kept for the Install button on /download instead of the browser's own mini-bar.
    event.preventDefault();
    setStore({ ...store, prompt: event as InstallPromptEvent });
  });
  window.addEventListener('appinstalled', () => setStore({ prompt: null, installed: true }));
  if (!('serviceWorker' in navigator)) return;
  // A controlled page fetched everything through the worker already; only an uncontrolled one
  // (the first visit, or after a hard reload) hands over what it loaded once the worker takes it.
  if (!navigator.serviceWorker.controller) {
    navigator.serviceWorker.addEventListener('controllerchange', () => void cacheLoadedPages(), { once: true });
  }
  afterLoad(() => {
    navigator.serviceWorker
      .register(SERVICE_WORKER_URL, { scope: '/' })
      .catch(() => {
        // No service worker (blocked, private mode): the site works as before, only without offline.
      });
  });
}
