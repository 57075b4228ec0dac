import { describe, expect, it } from 'vitest';
import type { NotificationView } from '../../shared/realtime';
import { handler as connect } from '../realtime/connect-socket';
import { handler as socketMessage } from '../realtime/handle-socket-message';
import { handler as listNotifications } from '../realtime/list-notifications';
import { notificationsRepo } from '../realtime/data/notifications';
import { newId } from '../common/ids';
import { strikeAppealed } from './owner-events';
import { OWNER_PUSH_ID } from '../realtime/push-caller';
import type { SocketEvent } from '../realtime/socket';
import { issuedCustomer } from '../testing/customers';
import { invoke, sampleEvent, throughTheEdge, withCookies } from '../testing/events';
import { ownerSessionCookie } from '../testing/owner';
import { framesOf, openTestConnection } from '../testing/sockets';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';

/**
 * The owner's notifications are the owner's alone: the bell's list answers each caller their own
 * channel (the owner by their session cookie), and over the socket only a connection the owner's
 * cookie opened gets them, in the batch or live, and may mark them read.
 */

const listSample = sampleEvent('list-notifications');
const connectSample = sampleEvent('connect-socket') as unknown as SocketEvent;
const messageSample = sampleEvent('handle-socket-message') as unknown as SocketEvent;

async function ownersNotification(): Promise<NotificationView> {
  const workerName = `Appealing ${newId()}`;
  await strikeAppealed({ workerId: newId(), workerName });
  const found = (await notificationsRepo.latest('owner', OWNER_PUSH_ID)).find((n) => n.message.includes(workerName));
  if (!found) throw new Error('the owner was not told');
  return found;
}

async function connected(headers: Record<string, string>): Promise<string> {
  const connectionId = await openTestConnection();
  const res = await connect(throughTheEdge({ ...connectSample, headers, requestContext: { ...connectSample.requestContext, connectionId } } as never) as unknown as SocketEvent);
  if ((res as { statusCode: number }).statusCode !== 200) throw new Error('not admitted');
  return connectionId;
}

async function send(connectionId: string, frame: unknown): Promise<void> {
  await socketMessage({ ...messageSample, body: JSON.stringify(frame), requestContext: { ...messageSample.requestContext, connectionId } });
}

const ids = (list: { id: string }[]) => list.map((n) => n.id);

describe("the owner's notifications", () => {
  it('are answered to the owner by their session cookie, and to no worker, customer or visitor', async () => {
    // Prepare
    const mine = await ownersNotification();
    const worker = await createTestWorker();
    const customer = await issuedCustomer();

    // Act
    const [owner, asWorker, asCustomer, anonymous] = await Promise.all([
      invoke(listNotifications, withCookies(listSample, [await ownerSessionCookie()])),
      invoke(listNotifications, withBearer(withCookies(listSample, []), await workerToken(worker.id))),
      invoke(listNotifications, withCookies(listSample, [customer.cookie])),
      invoke(listNotifications, withCookies(listSample, [])),
    ]);

    // Assess
    expect(owner.status).toBe(200);
    expect(ids(owner.body)).toContain(mine.id);
    for (const other of [asWorker, asCustomer, anonymous]) expect(ids(other.body)).not.toContain(mine.id);
  });

  it('reach only a socket the owner opened: others cannot register as the owner, get the batch or mark them read', async () => {
    // Prepare
    const mine = await ownersNotification();
    const customer = await issuedCustomer();
    const customerSocket = await connected({ Cookie: customer.cookie });
    const workerSocket = await connected({ 'Sec-WebSocket-Protocol': `fixly.v1, token.${await workerToken((await createTestWorker()).id)}` });
    const ownerSocket = await connected({ Cookie: await ownerSessionCookie() });

    // Act
    for (const socket of [customerSocket, workerSocket]) {
      await send(socket, { event: 'register:user', data: { userId: 'owner', role: 'owner' } });
      await send(socket, { event: 'notification:ack', data: { notificationId: mine.id } });
    }
    const stillUnread = (await notificationsRepo.latest('owner', OWNER_PUSH_ID)).find((n) => n.id === mine.id)?.read;
    await send(ownerSocket, { event: 'register:user', data: { userId: 'owner', role: 'owner' } });
    await send(ownerSocket, { event: 'notification:ack', data: { notificationId: mine.id } });

    // Assess
    for (const socket of [customerSocket, workerSocket]) {
      const frames = await framesOf(socket);
      expect(frames.map((f) => f.event)).toEqual(['error', 'error']);
    }
    expect(stillUnread).toBe(false);
    const batch = (await framesOf(ownerSocket)).find((f) => f.event === 'notifications:batch');
    expect(batch?.event === 'notifications:batch' && ids(batch.data.notifications)).toContain(mine.id);
    expect((await notificationsRepo.latest('owner', OWNER_PUSH_ID)).find((n) => n.id === mine.id)?.read).toBe(true);
  });
});
