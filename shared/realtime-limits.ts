/**
 * The realtime protocol's numbers, roles and room names (shared/realtime.ts has the messages).
 * Apart from the message schemas, so the web client's socket, which sends and reads frames
 * without validating them, does not bring zod into every page that listens.
 */

export const MAX_FRAME_BYTES = 32 * 1024;
/** Messages a connection may send per second before it is throttled. */
export const MAX_MESSAGES_PER_SECOND = 10;
/** One accepted location fix per worker per this many milliseconds. */
export const LOCATION_INTERVAL_MS = 2000;
/** Connections and memberships expire (TTL) after this long without a reconnect: API Gateway's 2 h limit. */
export const CONNECTION_TTL_SECONDS = 2 * 60 * 60;
/** Notifications are kept 30 days; the panel shows at most 100. */
export const NOTIFICATION_TTL_SECONDS = 30 * 24 * 60 * 60;
export const MAX_NOTIFICATIONS_SHOWN = 100;

/** The web client's reconnect rule: up to 10 attempts, 1 s doubling to 30 s, with jitter; 10 s connect timeout. */
export const reconnect = { attempts: 10, initialDelayMs: 1000, maxDelayMs: 30_000, connectTimeoutMs: 10_000 } as const;

export const realtimeRoles = ['customer', 'worker', 'owner'] as const;
export type RealtimeRole = (typeof realtimeRoles)[number];

export const rooms = {
  job: (jobId: string) => `job:${jobId}`,
  user: (role: RealtimeRole, id: string) => `user:${role}:${id}`,
};
