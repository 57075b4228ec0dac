import { RealtimeProvider } from '../../lib/realtime';
import { NotificationAlerts } from './notification-alerts';

/** The lazily loaded half of realtime-hosts.tsx: one chunk for both places it shows. */
export { default as RealtimeNav } from './realtime-nav';

export function RealtimeRoot() {
  return (
    <>
      <RealtimeProvider />
      <NotificationAlerts />
    </>
  );
}
