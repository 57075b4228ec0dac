import * as z from 'zod/mini';
import { MAX_FRAME_BYTES } from './realtime-limits';

/**
 * The realtime protocol of /ws, typed once for the server and the web
 * client. Every frame, both ways, is one JSON object `{ "event": <name>, "data": <payload> }`.
 * Rooms: `job:<jobId>` (the customer of a request or hire and the worker who holds it; the
 * client frames join_request and join:jobRoom both join it) and a user channel per person (`user:<role>:<id>`),
 * which the connection joins on connect.
 */

export {
  CONNECTION_TTL_SECONDS,
  LOCATION_INTERVAL_MS,
  MAX_FRAME_BYTES,
  MAX_MESSAGES_PER_SECOND,
  MAX_NOTIFICATIONS_SHOWN,
  NOTIFICATION_TTL_SECONDS,
  realtimeRoles,
  reconnect,
  rooms,
  type RealtimeRole,
} from './realtime-limits';

const id = z.string().check(z.minLength(1), z.maxLength(64));
const lat = z.number().check(z.gte(-90), z.lte(90));
const lng = z.number().check(z.gte(-180), z.lte(180));
const accuracy = z.optional(z.nullable(z.number().check(z.gte(0))));
const eta = z.optional(z.nullable(z.union([z.number(), z.string().check(z.maxLength(64))])));

/** What a client may send. Unknown events and bad payloads get an `error` frame back. */
export const clientMessages = {
  join_request: z.object({ requestId: id }),
  'join:jobRoom': z.object({ jobId: id }),
  'leave:jobRoom': z.object({ jobId: id }),
  register: z.object({ userId: id }),
  'register:user': z.object({ userId: id, role: z.string().check(z.maxLength(32)) }),
  'notification:ack': z.object({ notificationId: id }),
  'worker:loc': z.object({ jobId: id, lat, lng, accuracy }),
  location_update: z.object({ requestId: id, sender: z.optional(z.string().check(z.maxLength(32))), latitude: lat, longitude: lng, accuracy, eta }),
  work_status: z.object({
    requestId: id,
    status: z.enum(['one_minute_away', 'arrived', 'work_started', 'en_route']),
    latitude: z.optional(lat),
    longitude: z.optional(lng),
    eta,
  }),
  client_verification_response: z.object({ requestId: id, approved: z.boolean(), message: z.optional(z.string().check(z.maxLength(1000))), timestamp: z.optional(z.string().check(z.maxLength(64))) }),
  ping: z.optional(z.object({})),
} as const;

export type ClientEvent = keyof typeof clientMessages;
export type ClientMessage = { [E in ClientEvent]: { event: E; data: z.infer<(typeof clientMessages)[E]> } }[ClientEvent];

const text = z.string();
const nullableNumber = z.nullable(z.number());

/** A stored notification. */
export const notificationSchema = z.object({
  id: text,
  type: text,
  title: text,
  message: text,
  priority: z.enum(['low', 'medium', 'high', 'critical']),
  actionUrl: z.nullable(text),
  jobId: z.nullable(text),
  timestamp: text,
  read: z.boolean(),
});
export type NotificationView = z.infer<typeof notificationSchema>;

const assignedWorkerSchema = z.object({
  id: text,
  name: text,
  phone: text,
  photoUrl: z.nullable(text),
  rating: z.optional(nullableNumber),
  reviewCount: z.optional(z.number()),
});
export type AssignedWorker = z.infer<typeof assignedWorkerSchema>;

/**
 * What the server sends, by event name: zod schemas like the client's messages, so both sides
 * share one definition (a client may check a frame with `serverMessages[event]`).
 */
export const serverMessages = {
  /**
   * A customer sharing where they are, relayed to the job's room for the pro (no ETA: that is the
   * pro's to the customer). A pro's own fix is never sent this way: it is `worker:loc`, once.
   */
  location_update: z.object({ requestId: text, latitude: z.number(), longitude: z.number(), accuracy: nullableNumber, eta: nullableNumber, timestamp: text }),
  work_status: z.object({ requestId: text, status: z.enum(['one_minute_away', 'arrived', 'work_started', 'en_route']), eta: nullableNumber, timestamp: text }),
  invoice_created: z.object({ requestId: text, workerId: text, invoice: z.object({ id: text, totalAmount: z.number(), laborHours: z.number() }) }),
  worker_assigned: z.object({ requestId: text, worker: assignedWorkerSchema }),
  no_worker_available: z.object({ requestId: text, message: text }),
  job_reassigned: z.object({ requestId: text, message: text }),
  /** The search for a pro started again: the customer's Try again, or a pro who came on call nearby. */
  job_searching: z.object({ requestId: text, message: text }),
  /** The customer withdrew a request no pro had accepted. */
  job_cancelled: z.object({ requestId: text, message: text }),
  /** The pro pressed Mark Arrived and no location proved it: the customer is asked to confirm. */
  arrival_claimed: z.object({ requestId: text, claimedAt: text, message: text }),
  /** The customer answered "Has your pro arrived?" (true: the job is arrived; false: the claim is gone). */
  arrival_answered: z.object({ requestId: text, arrived: z.boolean(), message: text }),
  work_completion_verification: z.object({ requestId: text, workerId: text, workHours: nullableNumber, message: text }),
  /**
   * The pro's position and their ETA to the job (minutes; null when the job has no position), one
   * frame per accepted fix, to the job's customer's own channel. One message, not two: every frame
   * is one @connections post per recipient, the largest line of the realtime bill.
   */
  'worker:loc': z.object({ jobId: text, lat: z.number(), lng: z.number(), accuracy: nullableNumber, eta: nullableNumber, timestamp: text }),
  service_accepted: z.object({ requestId: text }),
  'job:accepted': z.object({ jobId: text, workerProfile: assignedWorkerSchema }),
  worker_job_accepted: z.object({ workerId: text, workerProfile: assignedWorkerSchema }),
  /** To the other pros a job was offered to, once one of them takes it: it is off their list at once. */
  'offer:withdrawn': z.object({ jobId: text }),
  /** The owner decided on the applicant's application: their review screen turns into the dashboard (or says no) at once. */
  'worker:status': z.object({ workerId: text, status: z.enum(['pending_review', 'active', 'suspended', 'terminated', 'rejected']) }),
  worker_verification_request: z.object({ requestId: text, workerId: text, message: text }),
  invoice_verification_request: z.object({ requestId: text, invoiceId: text, invoiceAmount: z.number() }),
  payment_completed: z.object({ requestId: text, invoiceId: text, receiptSent: z.object({ email: z.boolean(), sms: z.boolean() }) }),
  /** The customer's answer to the work verification, relayed to the worker. */
  client_verification_response: z.object({ requestId: text, approved: z.boolean(), message: z.nullable(text), timestamp: text }),
  notification: notificationSchema,
  'notifications:batch': z.object({ notifications: z.array(notificationSchema) }),
  /** Answers to the client's own frames. */
  joined: z.object({ room: text }),
  left: z.object({ room: text }),
  pong: z.object({}),
  error: z.object({ message: text, event: z.optional(text) }),
} as const;

export type ServerEvents = { [E in keyof typeof serverMessages]: z.infer<(typeof serverMessages)[E]> };

export type ServerEvent = keyof ServerEvents;
export type ServerMessage = { [E in ServerEvent]: { event: E; data: ServerEvents[E] } }[ServerEvent];

export function frame<E extends ServerEvent>(event: E, data: ServerEvents[E]): string {
  return JSON.stringify({ event, data });
}

/** Parses a client frame: the message, or the reason it was refused (said back in an `error` frame). */
export function parseClientFrame(raw: string): { ok: true; message: ClientMessage } | { ok: false; error: string; event?: string } {
  if (new TextEncoder().encode(raw).length > MAX_FRAME_BYTES) return { ok: false, error: `Frames are limited to ${MAX_FRAME_BYTES / 1024} KB.` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { ok: false, error: 'Send each frame as JSON: { "event": "...", "data": { ... } }.' };
  }
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { event?: unknown }).event !== 'string') {
    return { ok: false, error: 'A frame needs an "event" name.' };
  }
  const { event, data } = parsed as { event: string; data?: unknown };
  if (!Object.hasOwn(clientMessages, event)) return { ok: false, error: `Unknown event "${event.slice(0, 64)}".`, event: event.slice(0, 64) };
  const schema = clientMessages[event as ClientEvent];
  const result = z.safeParse(schema, data ?? (event === 'ping' ? undefined : {}));
  if (!result.success) return { ok: false, error: `The "${event}" data is not valid: ${result.error.issues.map((i) => `${i.path.join('.') || 'data'} ${i.message}`).join('; ')}`, event };
  return { ok: true, message: { event, data: result.data } as ClientMessage };
}
