import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { getToasts, subscribeToasts } from './toast-store';

// Radix Toast is a tenth of the landing page's JS, so it loads once the page is idle (or at the
// first toast, whichever comes first) instead of with the first paint.
const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

const hasToasts = () => getToasts().length > 0;

export function ToasterHost() {
  const wanted = useSyncExternalStore(subscribeToasts, hasToasts, hasToasts);
  const [idle, setIdle] = useState(false);

  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => setIdle(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(() => setIdle(true), 1000);
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
