import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import type { ClientEvent, ServerEvent, ServerEvents } from '../../../../shared/realtime';
import { RealtimeClient, socketUrl, type RealtimeSnapshot, type RealtimeStatus, type RoomRole } from './client';
import type { ClientData } from './frames';
import { NotificationStore, type NotificationsSnapshot } from './notifications';

/**
 * One socket per tab: the module's client, created on first use. The hooks work before the
 * provider has loaded (status offline, send refused, no events), so screens never wait for it.
 */
let client: RealtimeClient | null = null;
let notifications: NotificationStore | null = null;

export function realtimeClient(): RealtimeClient {
  if (!client) {
    const created = new RealtimeClient({
      url: () => socketUrl(window.location),
      createSocket: (url, protocols) => new WebSocket(url, protocols),
    });
    client = created;
    wireNotifications(created, notificationStore());
  }
  return client;
}

export function notificationStore(): NotificationStore {
  notifications ??= new NotificationStore();
  return notifications;
}

/** The notification centre follows the socket: the batch and live frames in, owed acks out. */
function wireNotifications(socket: RealtimeClient, store: NotificationStore): void {
  const flush = () => {
    if (socket.getSnapshot().status !== 'connected') return;
    store.flushAcks((notificationId, onSent) => socket.sendPaced('notification:ack', { notificationId }, onSent));
  };
  socket.on('notifications:batch', (data) => store.receiveAll(Array.isArray(data?.notifications) ? data.notifications : []));
  socket.on('notification', (data) => store.receive(data));
  socket.onOpen(() => {
    store.connectionLost();
    flush();
  });
  store.subscribe(flush);
}

/** While the socket is up, the 5 s polls of requests and invoices slow to this (a fallback only). */
export const POLL_WHILE_CONNECTED_MS = 30_000;

const offlineSnapshot: RealtimeSnapshot = { status: 'offline', wanted: false, gaveUp: false };

export function useRealtimeSnapshot(): RealtimeSnapshot {
  const socket = realtimeClient();
  return useSyncExternalStore(socket.subscribe, socket.getSnapshot, () => offlineSnapshot);
}

export function useRealtimeStatus(): RealtimeStatus {
  return useRealtimeSnapshot().status;
}

export type RealtimeSend = <E extends ClientEvent>(event: E, data: ClientData<E>) => boolean;

/** Sends one frame now; false (and nothing queued) while the socket is not connected. */
export function useRealtimeSend(): RealtimeSend {
  return useCallback<RealtimeSend>((event, data) => realtimeClient().send(event, data), []);
}

/** Calls `handler` for every `event` frame; the latest handler is used, without resubscribing. */
export function useRealtimeEvent<E extends ServerEvent>(event: E, handler: (data: ServerEvents[E]) => void): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => realtimeClient().on(event, (data) => latest.current(data)), [event]);
}

/** Holds job room `job:<jobId>` while mounted (customer: join_request; worker: join:jobRoom); null holds nothing. */
export function useJobRoom(jobId: string | null, as: RoomRole): void {
  useEffect(() => {
    if (!jobId) return;
    return realtimeClient().joinRoom(jobId, as);
  }, [jobId, as]);
}

/** Holds the job room of every id in `jobIds` (a list's worth of useJobRoom); the list may change freely. */
export function useJobRooms(jobIds: readonly string[], as: RoomRole): void {
  const key = [...new Set(jobIds)].sort().join('\n');
  useEffect(() => {
    if (!key) return;
    const socket = realtimeClient();
    // Releases wait a tick, so ids still in the next list keep their room without a frame.
    const releases = key.split('\n').map((jobId) => socket.joinRoom(jobId, as));
    return () => releases.forEach((release) => release());
  }, [key, as]);
}

/** Subscribes outside React's render cycle (several events, one handler); returns the unsubscribe. */
export function onRealtimeEvent<E extends ServerEvent>(event: E, handler: (data: ServerEvents[E]) => void): () => void {
  return realtimeClient().on(event, handler);
}

/** A polling interval: `baseMs` normally, 30 s while live events keep the screen current. */
export function useLivePollInterval(baseMs: number): number {
  return useRealtimeStatus() === 'connected' ? Math.max(baseMs, POLL_WHILE_CONNECTED_MS) : baseMs;
}

const emptyNotifications: NotificationsSnapshot = { items: [], unread: 0 };

export function useNotifications(): NotificationsSnapshot {
  const store = notificationStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, () => emptyNotifications);
}

/** The manual Reconnect after the attempts ran out: a fresh round, starting now. */
export function reconnectRealtime(): void {
  realtimeClient().reconnectNow();
}

export function markNotificationRead(id: string): void {
  notificationStore().markRead(id);
}

export function markAllNotificationsRead(): void {
  notificationStore().markAllRead();
}
