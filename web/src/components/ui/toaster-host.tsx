import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { getToasts, subscribeToasts } from './toast-store';

// Radix Toast is a tenth of the landing page's JS, so it loads with the first toast (most visits
// never have one); the toaster paints its empty live region before showing it, so it is read out.
const Toaster = lazy(() => import('./toaster').then((m) => ({ default: m.Toaster })));

const hasToasts = () => getToasts().length > 0;

export function ToasterHost() {
  const wanted = useSyncExternalStore(subscribeToasts, hasToasts, hasToasts);
  // Kept once mounted: the region stays for the next toast, and a closing toast keeps its exit animation.
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    if (wanted) setMounted(true);
  }, [wanted]);

  if (!mounted && !wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}
