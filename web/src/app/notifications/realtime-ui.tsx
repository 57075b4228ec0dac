import { QueryScope } from '../../lib/query-client';
import { RealtimeProvider } from '../../lib/realtime';
import { NotificationAlerts } from './notification-alerts';
import RealtimeNavCorner from './realtime-nav';

/**
 * The lazily loaded half of realtime-hosts.tsx: one chunk for both places it shows. Both sit in the
 * frame, outside the screens' query layout, so each gets the tab's query client itself.
 */
export function RealtimeNav() {
  return (
    <QueryScope>
      <RealtimeNavCorner />
    </QueryScope>
  );
}

export function RealtimeRoot() {
  return (
    <QueryScope>
      <RealtimeProvider />
      <NotificationAlerts />
    </QueryScope>
  );
}
