import { startTransition, useEffect, useState } from 'react';

/**
 * False until the browser is first idle after mounting (at most 2 s), then true: what is not needed
 * for the first paint loads then (the same rule as the toaster's host). The change is a transition,
 * so what it brings in renders in slices instead of one long task a tap would wait behind.
 */
export function useAfterIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const ready = () => startTransition(() => setIdle(true));
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(ready, { timeout: 2000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(ready, 1000);
    return () => window.clearTimeout(timer);
  }, []);
  return idle;
}
