import { lazy, startTransition, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { getToasts, subscribeToasts } from './toast-store';

// Radix Toast is a tenth of the landing page's JS, so it loads once the page is idle (or at the
// first toast, whichever comes first) instead of with the first paint.
const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

const hasToasts = () => getToasts().length > 0;

export function ToasterHost() {
  const wanted = useSyncExternalStore(subscribeToasts, hasToasts, hasToasts);
  const [idle, setIdle] = useState(false);

  useEffect(() => {
    // Not urgent when idle (a toast asked for is: `wanted`), so it renders in slices.
    const ready = () => startTransition(() => setIdle(true));
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(ready, { timeout: 2000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(ready, 1000);
    return () => window.clearTimeout(timer);
  }, []);

  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    if (wanted || idle) setMounted(true);
  }, [wanted, idle]);

  if (!mounted && !wanted && !idle) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
