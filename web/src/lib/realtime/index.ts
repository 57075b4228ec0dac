/**
 * The realtime socket of /ws for screens (shared/realtime.ts is the protocol): mount
 * RealtimeProvider once (lazily, after first paint); everything else is hooks on the tab's one
 * socket.
 */
export { RealtimeProvider } from './provider';
export {
  markAllNotificationsRead,
  markNotificationRead,
  notificationStore,
  onRealtimeEvent,
  POLL_WHILE_CONNECTED_MS,
  reconnectRealtime,
  useJobRoom,
  useJobRooms,
  useLivePollInterval,
  useNotifications,
  useRealtimeEvent,
  useRealtimeSend,
  useRealtimeSnapshot,
  useRealtimeStatus,
  type RealtimeSend,
} from './hooks';
export type { RealtimeSnapshot, RealtimeStatus, RoomRole } from './client';
export type { ClientData } from './frames';
export { rememberCustomerRequests } from './customer';
export { badgeText } from './notifications';
export { holdLiveScope, isLiveScoped } from './live-scope';
