/**
 * The installable app, from the entry chunk (main.tsx), kept tiny: the browser's install offer is
 * kept (it fires once, often before the /download screen's chunk has loaded), and once the page
 * has loaded the service worker is registered (offline-shell.ts, its own chunk), so it never
 * competes with the first paint.
 */

/** Chromium's install offer (not in TypeScript's DOM library). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

export interface InstallOffer {
  prompt: InstallPromptEvent | null;
  /** True once the browser says the app was installed from this page (`appinstalled`). */
  installed: boolean;
}

let offer: InstallOffer = { prompt: null, installed: false };
const listeners = new Set<() => void>();

export function getInstallOffer(): InstallOffer {
  return offer;
}

export function setInstallOffer(next: InstallOffer): void {
  offer = next;
  for (const listener of listeners) listener();
}

export function subscribeInstallOffer(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function startOfflineApp(): void {
  if (typeof window === 'undefined') return;
  window.addEventListener('beforeinstallprompt', (event) => {
    // Kept for the Install button on /download instead of the browser's own mini-bar.
    event.preventDefault();
    setInstallOffer({ ...offer, prompt: event as InstallPromptEvent });
  });
  window.addEventListener('appinstalled', () => setInstallOffer({ prompt: null, installed: true }));
  if (!('serviceWorker' in navigator)) return;
  // A controlled page fetches everything through the worker already; an uncontrolled one (the first
  // visit, or after a hard reload) hands over what it loaded once the worker takes it.
  const controlledAtStart = Boolean(navigator.serviceWorker.controller);
  const register = () => void import('./offline-shell').then((shell) => shell.registerServiceWorker(controlledAtStart));
  const later = () => ('requestIdleCallback' in window ? window.requestIdleCallback(register, { timeout: 5000 }) : setTimeout(register, 0));
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
