import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { serverMessages } from '../../shared/realtime';
import { handler } from './handle-socket-message';
import { handler as connect } from './connect-socket';
import { handleFrame } from './socket-messages';
import { handler as acceptJob } from '../jobs/accept-job';
import { connectionsRepo } from './data/connections';
import { jobsRepo } from '../jobs/data/jobs';
import { jobLocationsRepo } from '../jobs/data/job-locations';
import { notificationsRepo } from './data/notifications';
import { newId } from '../common/ids';
import { notify, publishToJob } from './realtime';
import { issuedCustomer } from '../testing/customers';
import { dispatchableWorker, offeredJob, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent, throughTheEdge, withBody, withPath } from '../testing/events';
import { dropTestConnection, framesOf, openTestConnection } from '../testing/sockets';
import { withBearer, workerToken } from '../testing/workers';
import { watchTableWrites } from '../testing/table-writes';
import type { SocketEvent } from './socket';
import type { JobItem } from '../jobs/data/jobs';

const sample = sampleEvent('handle-socket-message') as unknown as SocketEvent;
const connectSample = sampleEvent('connect-socket') as unknown as SocketEvent;

/** A connection admitted by $connect with these handshake headers, recording what it receives. */
async function connected(headers: Record<string, string>): Promise<string> {
  const connectionId = await openTestConnection();
  const res = await connect(throughTheEdge({ ...connectSample, headers, requestContext: { ...connectSample.requestContext, connectionId } } as never) as unknown as SocketEvent);
  if ((res as { statusCode: number }).statusCode !== 200) throw new Error('not admitted');
  return connectionId;
}

async function send(connectionId: string, frame: unknown): Promise<void> {
  await handler({ ...sample, body: typeof frame === 'string' ? frame : JSON.stringify(frame), requestContext: { ...sample.requestContext, connectionId } });
}

const eventsOf = async (connectionId: string) => (await framesOf(connectionId)).map((f) => f.event);

/** A job accepted by a worker (through the real accept call), with sockets for its customer and worker. */
async function liveJob() {
  const worker = await dispatchableWorker(testCategory(), { lat: 37.78, lng: -122.41 });
  const offered: JobItem = await offeredJob(worker.categories[0]!, [worker.id], 120, { lat: 37.77, lng: -122.42 });
  const token = await workerToken(worker.id);
  const customerSocket = await connected({ Cookie: `customer_id=${offered.customerId}` });
  const workerSocket = await connected({ 'Sec-WebSocket-Protocol': `fixly.v1, token.${token}` });
  return { worker, job: offered, token, customerSocket, workerSocket };
}

describe('$default: rooms', () => {
  it("lets the customer follow their request and the worker the job they hold, and delivers the job's events", async () => {
    // Prepare
    const { job, token, customerSocket, workerSocket } = await liveJob();
    await send(customerSocket, { event: 'join_request', data: { requestId: job.id } });
    await send(workerSocket, { event: 'join:jobRoom', data: { jobId: job.id } });

    // Act: the worker accepts through the HTTP call, then joins the job they now hold
    await invoke(acceptJob, withBearer(withPath(withBody(sampleEvent('accept-job'), {}), { jobId: job.id }), token));
    await send(workerSocket, { event: 'join:jobRoom', data: { jobId: job.id } });

    // Assess: before accepting, the job was not the worker's to follow
    // (The events of one change are sent at once, so their order may vary.)
    expect((await eventsOf(customerSocket)).sort()).toEqual(['job:accepted', 'joined', 'notification', 'service_accepted', 'worker_assigned', 'worker_job_accepted']);
    expect(await eventsOf(workerSocket)).toEqual(['error', 'joined']);
    expect((await connectionsRepo.members(`job:${job.id}`)).sort()).toEqual([customerSocket, workerSocket].sort());
    // Every frame sent is what the shared protocol says that event carries.
    for (const sent of [...(await framesOf(customerSocket)), ...(await framesOf(workerSocket))]) {
      expect(z.safeParse(serverMessages[sent.event], sent.data).success, sent.event).toBe(true);
    }
  });

  it('tells the other pros the job was offered to that it is gone once one takes it, and not the one who took it', async () => {
    // Prepare: one job offered to two pros, both connected
    const { worker, job, token, workerSocket } = await liveJob();
    const other = await dispatchableWorker(worker.categories[0]!, { lat: 37.78, lng: -122.41 });
    expect(await jobsRepo.addOffers(job, { [other.id]: new Date(Date.now() + 120_000).toISOString() }, new Date().toISOString())).toBe(true);
    const otherSocket = await connected({ 'Sec-WebSocket-Protocol': `fixly.v1, token.${await workerToken(other.id)}` });

    // Act
    await invoke(acceptJob, withBearer(withPath(withBody(sampleEvent('accept-job'), {}), { jobId: job.id }), token));

    // Assess
    expect(await framesOf(otherSocket)).toEqual([{ event: 'offer:withdrawn', data: { jobId: job.id } }]);
    expect(await eventsOf(workerSocket)).not.toContain('offer:withdrawn');
  });

  it("refuses to let anyone else into a job's room, with an error frame", async () => {
    const { job } = await liveJob();
    const stranger = await connected({ Cookie: (await issuedCustomer()).cookie });

    await send(stranger, { event: 'join_request', data: { requestId: job.id } });

    expect(await framesOf(stranger)).toEqual([{ event: 'error', data: { message: 'You can only follow your own requests and jobs.', event: 'join_request' } }]);
    expect(await connectionsRepo.members(`job:${job.id}`)).not.toContain(stranger);
  });

  it('prunes a connection that is gone (410) while delivering to the rest of the room', async () => {
    // Prepare
    const { job, customerSocket } = await liveJob();
    const stale = await connected({ Cookie: `customer_id=${job.customerId}` });
    for (const id of [customerSocket, stale]) await send(id, { event: 'join_request', data: { requestId: job.id } });
    await dropTestConnection(stale);

    // Act
    const delivery = await publishToJob(job.id, 'no_worker_available', { requestId: job.id, message: 'test' });

    // Assess
    expect(delivery).toEqual({ delivered: 1, pruned: 1 });
    expect(await connectionsRepo.members(`job:${job.id}`)).toEqual([customerSocket]);
    expect(await connectionsRepo.find(stale)).toBeUndefined();
  });
});

describe('$default: frames', () => {
  it.each([
    ['not JSON', '{nope', 'Send each frame as JSON: { "event": "...", "data": { ... } }.'],
    ['without an event', { data: {} }, 'A frame needs an "event" name.'],
    ['of an unknown event', { event: 'drop_tables', data: {} }, 'Unknown event "drop_tables".'],
    ['over 32 KB', { event: 'ping', data: { pad: 'x'.repeat(33 * 1024) } }, 'Frames are limited to 32 KB.'],
  ])('answers a frame %s with an error frame', async (_what, frame, message) => {
    const socket = await connected({ Cookie: (await issuedCustomer()).cookie });

    await send(socket, frame);

    expect((await framesOf(socket))[0]).toMatchObject({ event: 'error', data: { message } });
  });

  it('throttles a connection past 10 messages a second: one error frame, the rest dropped without a write', async () => {
    // Prepare
    const socket = await connected({ Cookie: (await issuedCustomer()).cookie });
    const now = Date.now();
    const writes = watchTableWrites();

    // Act: each frame reads the connection first, as the handler does
    for (let i = 0; i < 15; i++) await handleFrame((await connectionsRepo.find(socket))!, JSON.stringify({ event: 'ping' }), now);
    writes.stop();

    // Assess: ten counted and answered, the eleventh counted and told, the rest neither
    const events = await eventsOf(socket);
    expect(events.filter((e) => e === 'pong')).toHaveLength(10);
    expect(events.filter((e) => e === 'error')).toHaveLength(1);
    expect(writes.sent).toBe(11);
    expect(writes.refused).toBe(0);
  });

  it('holds the limit against 50 frames handled at once, counting every one of them, and opens again the next second', async () => {
    // Prepare: API Gateway invokes $default once per frame, concurrently; one second for the whole burst
    const socket = await openTestConnection();
    const connection = await connectionsRepo.open(socket, { workerId: newId() }, new Date().toISOString());
    const second = Math.floor(Date.now() / 1000) * 1000;
    const burst = (at: number) => Promise.all(Array.from({ length: 50 }, () => handleFrame(connection, JSON.stringify({ event: 'ping' }), at)));

    // Act
    await burst(second);
    const first = await eventsOf(socket);
    const counted = (await connectionsRepo.find(socket))?.windowCount;
    await burst(second + 1000);
    const both = await eventsOf(socket);

    // Assess
    expect(first.filter((e) => e === 'pong')).toHaveLength(10);
    expect(first.filter((e) => e === 'error')).toHaveLength(1);
    expect(counted).toBe(50);
    expect(both.filter((e) => e === 'pong')).toHaveLength(20);
    expect(both.filter((e) => e === 'error')).toHaveLength(2);
  });

  it('answers register:user with the notification history of the person, and refuses another user id', async () => {
    // Prepare
    const { customerId, cookie } = await issuedCustomer();
    await notify('customer', customerId, { type: 'job_accepted', title: 'Worker assigned', message: 'Sam accepted.', priority: 'high', actionUrl: '/', jobId: null });
    const socket = await connected({ Cookie: cookie });

    // Act
    await send(socket, { event: 'register:user', data: { userId: customerId, role: 'customer' } });
    await send(socket, { event: 'register:user', data: { userId: newId(), role: 'customer' } });

    // Assess
    const frames = await framesOf(socket);
    const batch = frames.find((f) => f.event === 'notifications:batch');
    expect(batch?.data).toMatchObject({ notifications: [{ title: 'Worker assigned', read: false }] });
    expect(frames.at(-1)).toMatchObject({ event: 'error', data: { message: 'You can only register as yourself.' } });
  });

  it('marks a notification read on notification:ack, only among the person\'s own', async () => {
    const { customerId, cookie } = await issuedCustomer();
    await notify('customer', customerId, { type: 'job_completed', title: 'Done', message: 'Verify', priority: 'high', actionUrl: '/', jobId: null });
    const [stored] = await notificationsRepo.latest('customer', customerId);
    const socket = await connected({ Cookie: cookie });
    const other = await connected({ Cookie: (await issuedCustomer()).cookie });

    await send(other, { event: 'notification:ack', data: { notificationId: stored!.id } });
    await send(socket, { event: 'notification:ack', data: { notificationId: stored!.id } });

    expect((await notificationsRepo.latest('customer', customerId))[0]?.read).toBe(true);
    expect((await framesOf(other))[0]).toMatchObject({ event: 'error' });
  });
});

describe('$default: live location', () => {
  it("relays the worker's fix to the job's customer as one frame with an ETA, keeps only the latest, and drops one within 2 s", async () => {
    // Prepare
    const { job, token, customerSocket, workerSocket } = await liveJob();
    await invoke(acceptJob, withBearer(withPath(withBody(sampleEvent('accept-job'), {}), { jobId: job.id }), token));
    await send(customerSocket, { event: 'join_request', data: { requestId: job.id } });

    // Act
    await send(workerSocket, { event: 'worker:loc', data: { jobId: job.id, lat: 37.775, lng: -122.415, accuracy: 8 } });
    await send(workerSocket, { event: 'worker:loc', data: { jobId: job.id, lat: 37.776, lng: -122.416, accuracy: 8 } });

    // Assess
    const positions = (await framesOf(customerSocket)).filter((f) => f.event === 'worker:loc' || f.event === 'location_update');
    expect(positions).toEqual([
      { event: 'worker:loc', data: { jobId: job.id, lat: 37.775, lng: -122.415, accuracy: 8, eta: expect.any(Number), timestamp: expect.any(String) } },
    ]);
    expect(await jobLocationsRepo.latest(job.id)).toMatchObject({ lat: 37.775, lng: -122.415 });
  });

  it('costs one table write per kept fix and none per dropped one, with no refused write, and leaves the frame limit to other frames', async () => {
    // Prepare: the pro holds the job; fixes stamped from the start of a second
    const { job, token, customerSocket, workerSocket } = await liveJob();
    await invoke(acceptJob, withBearer(withPath(withBody(sampleEvent('accept-job'), {}), { jobId: job.id }), token));
    const base = (Math.floor(Date.now() / 1000) + 1) * 1000;
    const frameAt = async (ms: number, message: unknown) => handleFrame((await connectionsRepo.find(workerSocket))!, JSON.stringify(message), base + ms);
    const fixAt = (ms: number, lat: number) => frameAt(ms, { event: 'worker:loc', data: { jobId: job.id, lat, lng: -122.415, accuracy: 8 } });
    const writes = watchTableWrites();

    // Act: kept, dropped 0.5 s and 1.999 s later, kept at 2 s; then 15 in one second, past the
    // frame limit (the first of them kept), and a ping in that same second
    await fixAt(0, 37.771);
    await fixAt(500, 37.772);
    await fixAt(1999, 37.773);
    await fixAt(2000, 37.774);
    for (let i = 0; i < 15; i++) await fixAt(4000 + i * 10, 37.78 + i / 1000);
    await frameAt(4500, { event: 'ping' });
    writes.stop();

    // Assess: a put per kept fix, the ping's count, nothing else; the customer heard each kept fix once
    expect(writes.commands).toEqual(['PutItemCommand', 'PutItemCommand', 'PutItemCommand', 'UpdateItemCommand']);
    expect(writes.refused).toBe(0);
    const heard = (await framesOf(customerSocket)).filter((f) => f.event === 'worker:loc').map((f) => (f.data as { lat: number }).lat);
    expect(heard).toEqual([37.771, 37.774, 37.78]);
    expect(await eventsOf(workerSocket)).toEqual(['pong']);
    expect(await jobLocationsRepo.latest(job.id)).toMatchObject({ lat: 37.78, at: new Date(base + 4000).toISOString() });
  });

  it('hears nothing more from a connection past its limit in that second, fixes included, and writes nothing for it', async () => {
    // Prepare: the pro holds the job and has sent 11 frames in this second
    const { job, token, customerSocket, workerSocket } = await liveJob();
    await invoke(acceptJob, withBearer(withPath(withBody(sampleEvent('accept-job'), {}), { jobId: job.id }), token));
    const now = Date.now();
    for (let i = 0; i < 11; i++) await handleFrame((await connectionsRepo.find(workerSocket))!, JSON.stringify({ event: 'ping' }), now);
    const writes = watchTableWrites();

    // Act
    await handleFrame((await connectionsRepo.find(workerSocket))!, JSON.stringify({ event: 'worker:loc', data: { jobId: job.id, lat: 37.775, lng: -122.415 } }), now);
    writes.stop();

    // Assess
    expect(writes.sent).toBe(0);
    expect((await framesOf(customerSocket)).filter((f) => f.event === 'worker:loc')).toEqual([]);
    expect(await jobLocationsRepo.latest(job.id)).toBeUndefined();
  });

  it("gives the pro's position to the job's customer alone: not to another connection left in the job's room, and not once the job is done", async () => {
    // Prepare: the job accepted and followed by its customer; another pro's connection still in its room
    const { job, worker, token, customerSocket, workerSocket } = await liveJob();
    await invoke(acceptJob, withBearer(withPath(withBody(sampleEvent('accept-job'), {}), { jobId: job.id }), token));
    await send(customerSocket, { event: 'join_request', data: { requestId: job.id } });
    const formerPro = await dispatchableWorker(worker.categories[0]!, { lat: 37.78, lng: -122.41 });
    const lingering = await connected({ 'Sec-WebSocket-Protocol': `fixly.v1, token.${await workerToken(formerPro.id)}` });
    await connectionsRepo.join(lingering, `job:${job.id}`);

    // Act: one fix while the pro holds the job, another after they completed it
    await send(workerSocket, { event: 'worker:loc', data: { jobId: job.id, lat: 37.775, lng: -122.415, accuracy: 8 } });
    const now = () => new Date().toISOString();
    await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now: now() });
    await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: now() });
    await jobsRepo.complete({ jobId: job.id, workerId: worker.id, now: now(), totalHours: 1 });
    await send(workerSocket, { event: 'worker:loc', data: { jobId: job.id, lat: 37.7, lng: -122.3, accuracy: 8 } });

    // Assess
    const positions = (frames: { event: string }[]) => frames.filter((f) => f.event === 'worker:loc' || f.event === 'location_update');
    expect(positions(await framesOf(customerSocket)).map((f) => f.event)).toEqual(['worker:loc']);
    expect(positions(await framesOf(lingering))).toEqual([]);
    expect((await framesOf(workerSocket)).at(-1)).toMatchObject({ event: 'error', data: { message: 'Only the professional on this job shares its location.' } });
    expect(await jobLocationsRepo.latest(job.id)).toMatchObject({ lat: 37.775, lng: -122.415 });
  });

  it("publishes a pro's fix sent in the location_update form as the same single worker:loc frame, and a customer's shared position never as one", async () => {
    // Prepare
    const { job, token, customerSocket, workerSocket } = await liveJob();
    await invoke(acceptJob, withBearer(withPath(withBody(sampleEvent('accept-job'), {}), { jobId: job.id }), token));
    await send(customerSocket, { event: 'join_request', data: { requestId: job.id } });
    await send(workerSocket, { event: 'join_request', data: { requestId: job.id } });

    // Act
    await send(workerSocket, { event: 'location_update', data: { requestId: job.id, latitude: 37.775, longitude: -122.415, accuracy: 8 } });
    await send(customerSocket, { event: 'location_update', data: { requestId: job.id, sender: 'customer', latitude: 37.77, longitude: -122.42 } });

    // Assess: the customer hears the pro once; the pro hears the customer's position in the job room
    const toCustomer = (await framesOf(customerSocket)).filter((f) => f.event === 'worker:loc');
    expect(toCustomer).toEqual([{ event: 'worker:loc', data: expect.objectContaining({ jobId: job.id, lat: 37.775, lng: -122.415, eta: expect.any(Number) }) }]);
    expect((await framesOf(workerSocket)).filter((f) => f.event === 'worker:loc')).toEqual([]);
    expect((await framesOf(workerSocket)).filter((f) => f.event === 'location_update')).toEqual([
      { event: 'location_update', data: expect.objectContaining({ requestId: job.id, latitude: 37.77, longitude: -122.42, eta: null }) },
    ]);
  });

  it('refuses a location from anyone but the worker holding the job', async () => {
    const { job, customerSocket } = await liveJob();

    await send(customerSocket, { event: 'worker:loc', data: { jobId: job.id, lat: 1, lng: 1 } });

    expect((await framesOf(customerSocket))[0]).toMatchObject({ event: 'error', data: { message: 'Only the professional on this job shares its location.' } });
    expect(await jobLocationsRepo.latest(job.id)).toBeUndefined();
  });
});

describe('$default: work status', () => {
  it('will not tell the customer "arrived" for a pro whose arrival nobody proved', async () => {
    // Prepare: the pro holds the job, on the way
    const { job, token, customerSocket, workerSocket } = await liveJob();
    await invoke(acceptJob, withBearer(withPath(withBody(sampleEvent('accept-job'), {}), { jobId: job.id }), token));
    await send(customerSocket, { event: 'join_request', data: { requestId: job.id } });
    const before = (await framesOf(customerSocket)).length;

    // Act
    await send(workerSocket, { event: 'work_status', data: { requestId: job.id, status: 'arrived' } });

    // Assess
    expect((await framesOf(customerSocket)).slice(before).map((f) => f.event)).not.toContain('work_status');
    expect((await framesOf(workerSocket)).at(-1)).toMatchObject({ event: 'error' });
    expect((await jobsRepo.findById(job.id))?.state).toBe('accepted');
  });
});
