import type { RouteDef, ResponseSchemaName, SocketRouteDef, StreamFilter } from '../route-types';

export const realtimeRoutes = [

  // Web push. Subscriptions belong to whoever is signed in: a worker's token, the owner's session or
  // the customer cookie ('anyone' identifies which; the handlers refuse the anonymous). A renewal
  // proves itself by the old endpoint instead, so it stays 'public'.
  {
    name: 'get-vapid-public-key',
    method: 'GET',
    path: '/api/push/vapid-public-key',
    access: 'public',
    response: 'vapidPublicKey',
    table: 'none',
    push: true,
  },
  {
    name: 'subscribe-push',
    method: 'POST',
    path: '/api/push/subscribe',
    access: 'anyone',
    body: 'pushSubscribeSchema',
    response: 'success',
    table: 'readwrite',
  },
  {
    name: 'unsubscribe-push',
    method: 'POST',
    path: '/api/push/unsubscribe',
    access: 'anyone',
    body: 'pushEndpointSchema',
    response: 'success',
    table: 'readwrite',
  },
  {
    name: 'verify-push-subscription',
    method: 'POST',
    path: '/api/push/verify-subscription',
    access: 'anyone',
    body: 'pushEndpointSchema',
    response: 'pushValid',
    table: 'read',
  },
  {
    name: 'renew-push-subscription',
    method: 'POST',
    path: '/api/push/renew',
    access: 'public',
    body: 'pushRenewSchema',
    response: 'success',
    table: 'readwrite',
  },
  { name: 'send-test-push', method: 'POST', path: '/api/push/test', access: 'anyone', response: 'testPushSent', table: 'readwrite', push: true },
  // The notification centre's history (also sent on connect as notifications:batch).
  { name: 'list-notifications', method: 'GET', path: '/api/notifications', access: 'anyone', response: 'notifications', table: 'read' },
] as const satisfies readonly (RouteDef & { response: ResponseSchemaName })[];

export const realtimeSocketRoutes = [
  { name: 'connect-socket', routeKey: '$connect', table: 'readwrite' },
  { name: 'disconnect-socket', routeKey: '$disconnect', table: 'readwrite' },
  { name: 'handle-socket-message', routeKey: '$default', table: 'readwrite' },
] as const satisfies readonly SocketRouteDef[];

/**
 * The stream records that go out as web push: new urgent notifications (a job offer, work to
 * verify, a strike), pushed off the path of the request that caused them, the stored notification
 * being the outbox (functions/realtime/deliver-push.ts). The stream's reader
 * (shared/stream/routes.ts) hands these over.
 */
export const urgentNotificationRecords = {
  eventName: ['INSERT'],
  dynamodb: { NewImage: { entity: { S: ['notification'] }, priority: { S: ['high', 'critical'] } } },
} as const satisfies StreamFilter;
