import { useQueryClient } from '@tanstack/react-query';
import { useRealtimeEvent } from '../../lib/realtime';
import { queryKeys } from '../../lib/query-keys';

/**
 * The owner's notifications (functions/owner/owner-events.ts: their types start with `owner_`) are
 * about something a console tab lists: a new application, a document to review, a job with no pro,
 * a strike, a failed payment. When one arrives the open tab's lists are fetched again at once
 * instead of at their next poll (only the queries on screen refetch; the rest are marked stale).
 */
export function useOwnerLiveRefresh(): void {
  const queryClient = useQueryClient();
  useRealtimeEvent('notification', (notification) => {
    if (notification.type.startsWith('owner_')) void queryClient.invalidateQueries({ queryKey: queryKeys.admin });
  });
}
