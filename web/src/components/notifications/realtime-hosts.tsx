import { lazy, Suspense, type ReactNode } from 'react';
import { useAfterIdle } from '../../lib/use-after-idle';

// The socket, the notification centre and their UI load once the page is idle, never with the
// landing page's first paint (README "Performance"). One loader, so one chunk and one preload list.
const load = () => import('./realtime-ui');
const RealtimeRoot = lazy(() => load().then((m) => ({ default: m.RealtimeRoot })));
const RealtimeNav = lazy(() => load().then((m) => ({ default: m.RealtimeNav })));

function AfterIdle({ children }: { children: ReactNode }) {
  return useAfterIdle() ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/** In the layout: the tab's realtime provider and the notification alerts. Renders nothing visible. */
export function RealtimeHost() {
  return (
    <AfterIdle>
      <RealtimeRoot />
    </AfterIdle>
  );
}

/** In the nav bar: the connection indicator and the notification bell, when there is a socket to show. */
export function RealtimeNavHost() {
  return (
    <AfterIdle>
      <RealtimeNav />
    </AfterIdle>
  );
}
