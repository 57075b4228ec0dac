import { useEffect, useState } from 'react';

/**
 * False until the browser is first idle after mounting (at most 2 s), then true: what is not needed
 * for the first paint loads then (the same rule as the toaster's host).
 */
export function useAfterIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => setIdle(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(() => setIdle(true), 1000);
    return () => window.clearTimeout(timer);
  }, []);
  return idle;
}
