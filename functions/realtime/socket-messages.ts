import { etaMinutes } from '../../shared/domain/geo';
import { heldStates } from '../../shared/domain/job-lifecycle';
import { frame, LOCATION_INTERVAL_MS, MAX_MESSAGES_PER_SECOND, parseClientFrame, rooms, type ClientMessage, type NotificationView, type ServerEvent, type ServerEvents } from '../../shared/realtime';
import { connectionsRepo, userRoom, userRooms, type ConnectionItem, type Identity } from './data/connections';
import { jobLocationsRepo } from '../jobs/data/job-locations';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import { notificationsRepo } from './data/notifications';
import { logger } from '../common/logger';
import { publish, publishToJob, sendTo } from './realtime';
import { isId } from '../../shared/schemas/id';

/**
 * What a client frame does, as plain functions over the connection's
 * identity. Answers to the sender go back on its own connection; refusals are `error` frames.
 */
type Reply = <E extends ServerEvent>(event: E, data: ServerEvents[E]) => Promise<void>;

const ERROR_JOIN = 'You can only follow your own requests and jobs.';
const ERROR_FIX = 'Only the professional on this job shares its location.';

/**
 * One client frame, from the connection as its handler read it: not heard when that read shows the
 * connection past this second's limit; a pro's fix left to the fix interval (keepFix); anything
 * else counted against the limit, then acted on.
 */
export async function handleFrame(connection: ConnectionItem, raw: string, now = Date.now()): Promise<void> {
  const reply: Reply = async (event, data) => {
    await sendTo(connection.connectionId, frame(event, data));
  };
  const second = Math.floor(now / 1000);
  // The connection as read is already past this second's limit and was told so: nothing to write or say.
  if (pastLimit(connection, second)) return;
  const parsed = parseClientFrame(raw);
  const fix = parsed.ok ? proFixOf(connection, parsed.message) : undefined;
  if (fix) return keepFix(connection, fix, now, reply, () => admitted(connection, second, reply));
  if (!(await admitted(connection, second, reply))) return;
  if (!parsed.ok) {
    await reply('error', { message: parsed.error, ...(parsed.event ? { event: parsed.event } : {}) });
    return;
  }
  await act(connection, parsed.message, reply, now);
}

/** Whether the connection, as this frame's handler read it, went past the limit in this second (or a later one). */
function pastLimit(connection: ConnectionItem, second: number): boolean {
  return connection.windowSecond !== undefined && connection.windowSecond >= second && (connection.windowCount ?? 0) > MAX_MESSAGES_PER_SECOND;
}

/** Counts the frame in its second; false when it is past the limit (which is said once that second). */
async function admitted(connection: ConnectionItem, second: number, reply: Reply): Promise<boolean> {
  const count = await connectionsRepo.countMessage(connection, second);
  if (count <= MAX_MESSAGES_PER_SECOND) return true;
  // Said once per second, not once per extra frame, so throttling cannot be turned into a flood.
  if (count === MAX_MESSAGES_PER_SECOND + 1) {
    logger.warn('Socket throttled', { connectionId: connection.connectionId });
    await reply('error', { message: `Too many messages: at most ${MAX_MESSAGES_PER_SECOND} a second. Slow down.` });
  }
  return false;
}

/** A pro's position fix, in either of its two forms. */
interface ProFix {
  event: 'worker:loc' | 'location_update';
  jobId: string;
  lat: number;
  lng: number;
  accuracy: number | null;
}

/**
 * The fix this frame carries, when it is a pro's: `worker:loc`, or `location_update` sent by anyone
 * but the customer, from a connection with a worker behind it. Anything else goes through `act`.
 */
function proFixOf(identity: Identity, message: ClientMessage): ProFix | undefined {
  if (!identity.workerId) return undefined;
  if (message.event === 'worker:loc') {
    return { event: message.event, jobId: message.data.jobId, lat: message.data.lat, lng: message.data.lng, accuracy: message.data.accuracy ?? null };
  }
  if (message.event === 'location_update' && !fromCustomer(message.data.sender)) {
    return { event: message.event, jobId: message.data.requestId, lat: message.data.latitude, lng: message.data.longitude, accuracy: message.data.accuracy ?? null };
  }
  return undefined;
}

const fromCustomer = (sender: string | undefined) => sender === 'customer' || sender === 'client';

/**
 * A pro's fix: kept and published at most once per 2 s per job, only the latest stored. The frame
 * counter is left out here, because the interval already governs what a fix costs: a kept one is
 * one write and one frame to the customer, no more often than the interval allows, and a dropped
 * one writes nothing and answers nothing. Counting it too would be a second write per fix (the
 * largest cost of a booking) guarding against nothing more. A refusal is an answer, so it is counted
 * like any other frame.
 */
async function keepFix(identity: Identity, fix: ProFix, now: number, reply: Reply, admit: () => Promise<boolean>): Promise<void> {
  const job = await heldBy(identity, fix.jobId);
  if (!job) {
    if (await admit()) await reply('error', { message: ERROR_FIX, event: fix.event });
    return;
  }
  const at = new Date(now).toISOString();
  const point = { lat: fix.lat, lng: fix.lng, accuracy: fix.accuracy };
  const kept = await jobLocationsRepo.keepLatest({ jobId: job.id, workerId: identity.workerId!, ...point, at, minIntervalMs: LOCATION_INTERVAL_MS });
  if (!kept) return;
  const eta = job.latitude !== null && job.longitude !== null ? etaMinutes({ lat: fix.lat, lng: fix.lng }, { lat: job.latitude, lng: job.longitude }) : null;
  // Where the pro is belongs to this job's customer alone, and only while the pro holds it:
  // their own channel, not the job's room, where a pro who held the job before a reassignment
  // (or any connection left behind) may still be a member. One frame carries the point and the
  // ETA: each frame is a post per connection of the customer's, and fixes come every 2 s.
  await publish(userRoom('customer', job.customerId), 'worker:loc', { jobId: job.id, ...point, eta, timestamp: at });
}

/**
 * The customer sharing where they are (the GPS panel): relayed to the job's room for the
 * professional, with no ETA (that is the professional's to the customer), and not stored.
 */
async function relayCustomerPosition(
  identity: Identity,
  data: { requestId: string; latitude: number; longitude: number; accuracy?: number | null },
  reply: Reply,
  at: string,
): Promise<void> {
  const job = await followable(identity, data.requestId);
  if (!job || job.customerId !== identity.customerId || !(heldStates as readonly string[]).includes(job.state)) {
    return reply('error', { message: 'You can share your location only on a request a professional is working on.', event: 'location_update' });
  }
  await publishToJob(job.id, 'location_update', { requestId: job.id, latitude: data.latitude, longitude: data.longitude, accuracy: data.accuracy ?? null, eta: null, timestamp: at });
}

/** The job, if this identity may follow it: its customer, or the worker who holds or held it. */
async function followable(identity: Identity, jobId: string): Promise<JobItem | undefined> {
  if (!isId(jobId)) return undefined;
  const job = await jobsRepo.findById(jobId, false);
  if (!job) return undefined;
  if (identity.customerId && job.customerId === identity.customerId) return job;
  if (identity.workerId && job.acceptedBy === identity.workerId) return job;
  return undefined;
}

/** The job, if this identity's worker holds it now (the only one who may speak for the work). */
async function heldBy(identity: Identity, jobId: string): Promise<JobItem | undefined> {
  const job = identity.workerId ? await followable(identity, jobId) : undefined;
  return job && job.acceptedBy === identity.workerId && (heldStates as readonly string[]).includes(job.state) ? job : undefined;
}

async function batchFor(identity: Identity): Promise<NotificationView[]> {
  const lists = await Promise.all([
    identity.customerId ? notificationsRepo.latest('customer', identity.customerId) : [],
    identity.workerId ? notificationsRepo.latest('worker', identity.workerId) : [],
    identity.owner ? notificationsRepo.latest('owner', 'owner') : [],
  ]);
  return lists.flat().sort((a, b) => b.timestamp.localeCompare(a.timestamp)).slice(0, 100);
}

async function act(connection: ConnectionItem, message: ClientMessage, reply: Reply, now: number): Promise<void> {
  const identity: Identity = connection;
  const at = new Date(now).toISOString();
  switch (message.event) {
    case 'ping':
      return reply('pong', {});

    case 'register':
    case 'register:user': {
      // The person is whoever the handshake proved; a userId naming someone else is refused.
      const claimed = message.data.userId;
      const mine = [identity.customerId, identity.workerId, identity.owner ? 'owner' : undefined].filter(Boolean);
      if (!mine.includes(claimed)) return reply('error', { message: 'You can only register as yourself.', event: message.event });
      for (const room of userRooms(identity)) await reply('joined', { room });
      return reply('notifications:batch', { notifications: await batchFor(identity) });
    }

    case 'join_request':
    case 'join:jobRoom': {
      const jobId = message.event === 'join_request' ? message.data.requestId : message.data.jobId;
      const job = await followable(identity, jobId);
      if (!job) {
        logger.warn('Room join refused', { connectionId: connection.connectionId, event: message.event });
        return reply('error', { message: ERROR_JOIN, event: message.event });
      }
      await connectionsRepo.join(connection.connectionId, rooms.job(job.id));
      return reply('joined', { room: rooms.job(job.id) });
    }

    case 'leave:jobRoom':
      await connectionsRepo.leave(connection.connectionId, rooms.job(message.data.jobId));
      return reply('left', { room: rooms.job(message.data.jobId) });

    case 'notification:ack': {
      const { notificationId } = message.data;
      const done = await Promise.all([
        identity.customerId ? notificationsRepo.acknowledge('customer', identity.customerId, notificationId) : false,
        identity.workerId ? notificationsRepo.acknowledge('worker', identity.workerId, notificationId) : false,
        identity.owner ? notificationsRepo.acknowledge('owner', 'owner', notificationId) : false,
      ]);
      if (!done.some(Boolean)) return reply('error', { message: 'No such notification.', event: message.event });
      return;
    }

    case 'location_update':
    case 'worker:loc':
      // A pro's fix went to keepFix; what is left is the customer sharing where they are, or a fix
      // from a connection with no worker behind it.
      if (message.event === 'location_update' && fromCustomer(message.data.sender)) return relayCustomerPosition(identity, message.data, reply, at);
      return reply('error', { message: ERROR_FIX, event: message.event });

    case 'work_status': {
      const job = await heldBy(identity, message.data.requestId);
      if (!job) return reply('error', { message: 'Only the professional on this job sends its status.', event: message.event });
      // "Arrived" is told by the server once it is proven (a fix at the address, or the customer's
      // yes): a frame cannot announce it to the customer before that.
      if (message.data.status === 'arrived' && job.state !== 'arrived' && job.state !== 'in_progress') {
        return reply('error', { message: 'Press Mark Arrived: arrival is shown once your location or the customer confirms it.', event: message.event });
      }
      const eta = typeof message.data.eta === 'number' ? message.data.eta : null;
      await publishToJob(job.id, 'work_status', { requestId: job.id, status: message.data.status, eta, timestamp: at });
      return;
    }

    case 'client_verification_response': {
      const job = await followable(identity, message.data.requestId);
      if (!job || job.customerId !== identity.customerId) return reply('error', { message: ERROR_JOIN, event: message.event });
      await publishToJob(job.id, 'client_verification_response', {
        requestId: job.id,
        approved: message.data.approved,
        message: message.data.message ?? null,
        timestamp: message.data.timestamp ?? at,
      });
      return;
    }
  }
}
