/**
 * A release replaces the app's content-hashed chunks. The server keeps the old ones (infra/site-deploy.ts),
 * but when one is gone anyway (an old tab, a cache), the lazy screen it holds cannot load: the page
 * then reloads itself once to pick up the new release, and otherwise says so with a Reload button
 * (features/app-update/new-version-page.tsx) instead of a blank or broken screen.
 */

/** The errors the browsers give for a module script or stylesheet that could not be fetched. */
const CHUNK_LOAD_MESSAGE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i;

/** Errors Vite reported as a failed chunk load (its `vite:preloadError` event), whatever their text. */
const reported = new WeakSet<object>();

/** Whether an error is a chunk or stylesheet of the app that could not be loaded. */
export function isChunkLoadError(error: unknown): boolean {
  if (typeof error === 'object' && error !== null && reported.has(error)) return true;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CHUNK_LOAD_MESSAGE.test(message);
}

const RELOAD_KEY = 'fixly:new-version-reload';
/**
 * At most one automatic reload in this long, per tab: a reload that meets a missing chunk again
 * (a release that is still going out, a broken one) shows the page and its Reload button, never
 * a loop of reloads.
 */
export const AUTOMATIC_RELOAD_GUARD_MS = 10 * 60_000;

export type ReloadGuardStorage = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * Whether the page may reload itself now: not when it did within the guard time. Claiming notes the
 * time; without storage that keeps the note (private modes may refuse), the answer is no, since a
 * reload nobody remembers could repeat for ever.
 */
export function claimAutomaticReload(storage: ReloadGuardStorage | undefined, now: number): boolean {
  if (!storage) return false;
  try {
    const last = Number(storage.getItem(RELOAD_KEY) ?? '');
    if (Number.isFinite(last) && last > 0 && last <= now && now - last < AUTOMATIC_RELOAD_GUARD_MS) return false;
    storage.setItem(RELOAD_KEY, String(now));
    return storage.getItem(RELOAD_KEY) === String(now);
  } catch {
    return false;
  }
}

function tabStorage(): ReloadGuardStorage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Reloads to pick up the new release, unless this tab already did lately. True when it reloads. */
export function reloadForNewVersion(): boolean {
  if (typeof window === 'undefined' || !claimAutomaticReload(tabStorage(), Date.now())) return false;
  window.location.reload();
  return true;
}

/**
 * Vite's preload helper tells of every lazy chunk (or its stylesheet) that fails to load, wherever
 * it is imported: the screens, and the lazy parts of the frame (nav bar, toasts), which no screen's
 * error boundary covers. The error still reaches React, where the boundaries show the page.
 */
export function watchForNewVersion(): void {
  if (typeof window === 'undefined') return;
  window.addEventListener('vite:preloadError', (event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (typeof payload === 'object' && payload !== null) reported.add(payload);
    reloadForNewVersion();
  });
}
