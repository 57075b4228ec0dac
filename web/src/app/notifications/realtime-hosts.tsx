import { lazy, Suspense, type ReactNode } from 'react';
import { useOwnerSignedIn } from '../../lib/owner-session';
import { useCustomerHasRequests } from '../../lib/realtime/customer';
import { useAfterIdle } from '../../lib/use-after-idle';
import { useSignedInWorker } from '../../lib/worker-token';

// The socket, the notification centre and their UI load once the page is idle, never with the
// landing page's first paint (infra/bench/README.md), and only for someone the socket could be
// for: a signed-in worker, the owner, a customer who has sent a request. A first visit has none of
// these and loads none of it. One loader, so one chunk and one preload list.
const load = () => import('./realtime-ui');
const RealtimeRoot = lazy(() => load().then((m) => ({ default: m.RealtimeRoot })));
const RealtimeNav = lazy(() => load().then((m) => ({ default: m.RealtimeNav })));

/** Whether anybody the realtime socket serves is here; the provider decides the rest (an inactive worker gets no socket). */
function useSomeoneToConnect(): boolean {
  const worker = useSignedInWorker();
  const customer = useCustomerHasRequests();
  const owner = useOwnerSignedIn();
  return worker !== null || customer || owner;
}

function AfterIdle({ children }: { children: ReactNode }) {
  const idle = useAfterIdle();
  const wanted = useSomeoneToConnect();
  return idle && wanted ? <Suspense fallback={null}>{children}</Suspense> : null;
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
