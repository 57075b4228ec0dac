import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while React hydrates prerendered HTML (and in the build-time render itself), true in every
 * render after it and in every render of a page the browser built alone. A screen that depends on
 * something only the browser knows (the query string) renders its neutral state until then, so the
 * HTML made without it can be hydrated.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
