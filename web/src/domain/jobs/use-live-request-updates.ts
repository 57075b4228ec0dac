import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { requestNumber } from '../../../../shared/domain/requests';
import { queryKeys } from '../../lib/query-keys';
import { holdLiveScope, onRealtimeEvent, rememberCustomerRequests, useJobRooms } from '../../lib/realtime';
import { toast } from '../../components/ui/toast-store';
import { followsLive, LIVE_REQUEST_EVENTS, liveRequestId, liveToastFor, touchesInvoices } from './live-toasts';

/**
 * Live updates for a screen listing the customer's requests (the home page, the client
 * dashboard's hires): it holds the room of every request with events still to come, toasts each
 * live event it follows for that event's time (LIVE_TOAST_MS), and refetches the list (and invoices) at once.
 * It also tells the socket that this browser's customer has requests (so it connects) or none.
 */
export function useLiveRequestUpdates(requests: readonly ServiceRequestView[] | undefined): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (requests) rememberCustomerRequests(requests.length);
  }, [requests]);

  const ids = useMemo(() => (requests ?? []).map((request) => request.id), [requests]);
  const live = useMemo(() => (requests ?? []).filter(followsLive).map((request) => request.id), [requests]);
  useJobRooms(live, 'customer');

  // The bell keeps these jobs' notifications without toasting them a second time.
  const scopeKey = ids.join('\n');
  useEffect(() => (scopeKey ? holdLiveScope(scopeKey.split('\n')) : undefined), [scopeKey]);

  const known = useRef<ReadonlySet<string>>(new Set());
  useEffect(() => {
    known.current = new Set(ids);
  }, [ids]);

  useEffect(() => {
    const offs = LIVE_REQUEST_EVENTS.map((event) =>
      onRealtimeEvent(event, (data) => {
        const id = liveRequestId(event, data);
        // Only this customer's requests: a browser that is also a worker hears its job's room too.
        if (!id || !known.current.has(id)) return;
        const shown = liveToastFor(event, data, `Request ${requestNumber(id)}`);
        if (shown) toast(shown);
        void queryClient.invalidateQueries({ queryKey: queryKeys.customerRequests });
        if (touchesInvoices(event)) void queryClient.invalidateQueries({ queryKey: queryKeys.invoices });
      }),
    );
    return () => offs.forEach((off) => off());
  }, [queryClient]);
}
