import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useAdminStatus } from '../admin-status';
import { apiGetKey } from '../api';
import { queryKeys } from '../query-keys';
import { useSignedInWorker } from '../worker-token';
import { identityNarrowed, identityOf } from './client';
import { useCustomerHasRequests } from './customer';
import { notificationStore, realtimeClient, useRealtimeSnapshot } from './hooks';
import { notificationsFromResponse } from './notifications';

/** While the socket is down, the notification centre asks GET /api/notifications this often. */
export const NOTIFICATION_POLL_MS = 30_000;

let mounted = 0;

/**
 * Decides who the tab's socket connects as and keeps it connected: a signed-in worker (their
 * token), the owner (their session, by the admin status call) and a customer who has sent a
 * request (their cookie). Nobody: no socket. Mount it once, outside the routes; it renders its
 * children unchanged (the hooks reach the socket directly, so nothing needs to sit inside it).
 */
export function RealtimeProvider({ children }: { children?: ReactNode }) {
  const signedIn = useSignedInWorker();
  const worker = signedIn?.active ? signedIn : null;
  const { isAdmin } = useAdminStatus();
  const customer = useCustomerHasRequests();
  const identity = useMemo(
    () => identityOf({ worker: worker ? { token: worker.token, id: worker.id } : null, owner: isAdmin, customer }),
    [worker, isAdmin, customer],
  );
  const key = identity?.key ?? null;
  const lastKey = useRef<string | null>(null);
  const { status, wanted, gaveUp } = useRealtimeSnapshot();

  useEffect(() => {
    if (identityNarrowed(lastKey.current, key)) notificationStore().reset();
    lastKey.current = key;
    // The key alone decides when to reconnect: identity is derived from it (a new object per render).
    realtimeClient().setIdentity(identity);
  }, [key]);

  useEffect(() => {
    mounted += 1;
    return () => {
      mounted -= 1;
      // A tick later: StrictMode's unmount and remount must not cost a second socket.
      setTimeout(() => {
        if (mounted === 0) realtimeClient().setIdentity(null);
      }, 0);
    };
  }, []);

  // Back online after the attempts ran out (or mid-wait): try again at once rather than waiting.
  useEffect(() => {
    if (!wanted || status === 'connected') return;
    const retry = () => realtimeClient().reconnectNow();
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [wanted, status, gaveUp]);

  // Without the socket, the bell still fills: the same list the batch carries, by polling.
  const poll = useQuery({
    queryKey: queryKeys.notifications(key),
    queryFn: ({ signal }) => apiGetKey(queryKeys.notifications(key), { token: worker?.token ?? null, signal }),
    enabled: wanted && status !== 'connected',
    refetchInterval: NOTIFICATION_POLL_MS,
    staleTime: 0,
  });
  useEffect(() => {
    if (poll.data !== undefined) notificationStore().receiveAll(notificationsFromResponse(poll.data));
  }, [poll.data]);

  // A customer alone cannot register:user (their id is in an HttpOnly cookie), so no batch comes:
  // their list is read over HTTP at each open instead.
  const { refetch } = poll;
  const registers = identity?.register != null;
  useEffect(() => {
    if (!wanted || registers) return;
    return realtimeClient().onOpen(() => void refetch());
  }, [wanted, registers, refetch]);

  return children ?? null;
}
