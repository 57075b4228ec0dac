import type { NotificationView, RealtimeRole } from '../realtime';
import { defineEntity } from './define';

/**
 * What real time stores: /ws connections and their room memberships, notifications, web push
 * subscriptions and the marks that keep a push from going out twice. Connections, memberships and
 * notifications expire (TTL).
 */
export interface Identity {
  customerId?: string;
  workerId?: string;
  owner?: boolean;
}

export interface ConnectionItem extends Identity {
  pk: string;
  sk: string;
  entity: 'connection';
  connectionId: string;
  rooms: string[];
  connectedAt: string;
  /** The second (epoch) the message counter is for, and how many came in it. */
  windowSecond?: number;
  windowCount?: number;
  expiresAt: number;
}

/** A /ws connection: who it is (role and id), its rooms, its message window. */
export const connectionEntity = defineEntity<ConnectionItem>()({
  name: 'connection',
  key: (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'CONN' }),
});

export interface RoomMemberItem {
  pk: string;
  sk: string;
  entity: 'room-member';
  room: string;
  connectionId: string;
  expiresAt: number;
}

/** A room's members: one item per connection, so fan-out is one Query (never a Scan). */
export const roomMemberEntity = defineEntity<RoomMemberItem>()({
  name: 'room-member',
  key: (room: string, connectionId = '') => ({ pk: `ROOM#${room}`, sk: `CONN#${connectionId}` }),
});

/** A person's notifications, kept 30 days (TTL), newest shown first. */
export interface NotificationItem extends NotificationView {
  pk: string;
  sk: string;
  entity: 'notification';
  /** Whom it is for, as plain attributes: the stream consumer that pushes it reads them (deliver-push). */
  recipientRole: RealtimeRole;
  recipientId: string;
  expiresAt: number;
}

/** A person's notifications, newest last. */
export const notificationEntity = defineEntity<NotificationItem>()({
  name: 'notification',
  key: (role: string, userId: string, createdAt = '', id = '') => ({
    pk: `NOTIFS#${role}#${userId}`,
    sk: createdAt ? `NOTIF#${createdAt}#${id}` : 'NOTIF#',
  }),
});

/**
 * Web push subscriptions: one item per person and endpoint, under the person (so sending to someone
 * is one Query), plus one entry per endpoint naming its person (the browser's unsubscribe and verify
 * send only the endpoint). Endpoints are capability URLs: keys are by their SHA-256.
 */
export interface PushSubscriptionItem {
  pk: string;
  sk: string;
  entity: 'push-subscription';
  role: RealtimeRole;
  userId: string;
  endpointHash: string;
  endpoint: string;
  p256dhKey: string;
  authKey: string;
  userAgent?: string;
  /** When the push service says the subscription ends (epoch ms), if it says. */
  expirationTime?: number;
  isActive: boolean;
  subscribedAt: string;
  lastUsed?: string;
}

export interface PushEndpointItem {
  pk: string;
  sk: string;
  entity: 'push-endpoint';
  role: RealtimeRole;
  userId: string;
  endpointHash: string;
}

export const pushSubscriptionEntity = defineEntity<PushSubscriptionItem>()({
  name: 'push-subscription',
  key: (role: string, userId: string, endpointHash = '') => ({ pk: `PUSH#${role}#${userId}`, sk: `SUB#${endpointHash}` }),
});

export const pushEndpointEntity = defineEntity<PushEndpointItem>()({
  name: 'push-endpoint',
  key: (endpointHash: string) => ({ pk: `PUSHENDPOINT#${endpointHash}`, sk: 'ENDPOINT' }),
});

/**
 * That an urgent notification's push went out (or is going out: a lease), so a retried or replayed
 * stream batch does not alert twice; expires (TTL).
 */
export interface PushDeliveryItem {
  pk: string;
  sk: string;
  entity: 'push-delivery';
  state: 'sending' | 'sent';
  /** Epoch seconds the sending claim holds until. */
  leaseUntil?: number;
  sentAt?: string;
  expiresAt: number;
}

export const pushDeliveryEntity = defineEntity<PushDeliveryItem>()({
  name: 'push-delivery',
  key: (notificationId: string) => ({ pk: `PUSH_DELIVERY#${notificationId}`, sk: 'DELIVERY' }),
});
