import { describe, expect, it } from 'vitest';
import { handler } from './connect-socket';
import { handler as disconnect } from './disconnect-socket';
import { connectionsRepo } from './data/connections';
import { newId } from '../common/ids';
import { issuedCustomer } from '../testing/customers';
import { sampleEvent, throughTheEdge } from '../testing/events';
import { ownerSessionCookie } from '../testing/owner';
import { openTestConnection } from '../testing/sockets';
import { createTestWorker, workerToken } from '../testing/workers';
import type { SocketEvent } from './socket';

const sample = sampleEvent('connect-socket') as unknown as SocketEvent;
const disconnectSample = sampleEvent('disconnect-socket') as unknown as SocketEvent;

/** A handshake with these headers, through CloudFront (which adds its own). */
function handshake(connectionId: string, headers: Record<string, string>): SocketEvent {
  return throughTheEdge({ ...sample, headers, requestContext: { ...sample.requestContext, connectionId } } as never) as unknown as SocketEvent;
}

describe('$connect', () => {
  it("admits a customer by their cookie, in their own channel, and selects our subprotocol", async () => {
    // Prepare
    const connectionId = await openTestConnection();
    const { customerId, cookie } = await issuedCustomer();

    // Act
    const res = await handler(handshake(connectionId, { Cookie: cookie, 'Sec-WebSocket-Protocol': 'fixly.v1' }));

    // Assess
    expect(res).toEqual({ statusCode: 200, headers: { 'Sec-WebSocket-Protocol': 'fixly.v1' } });
    expect(await connectionsRepo.find(connectionId)).toMatchObject({ customerId, rooms: [`user:customer:${customerId}`] });
    expect(await connectionsRepo.members(`user:customer:${customerId}`)).toEqual([connectionId]);
  });

  it("admits an active worker by the token offered as a subprotocol, and the owner by their session, together with a customer cookie", async () => {
    const connectionId = await openTestConnection();
    const worker = await createTestWorker();
    const { customerId, cookie } = await issuedCustomer();

    const res = await handler(
      handshake(connectionId, {
        cookie: `${cookie}; ${await ownerSessionCookie()}`,
        'sec-websocket-protocol': `fixly.v1, token.${await workerToken(worker.id)}`,
      }),
    );

    expect(res).toMatchObject({ statusCode: 200 });
    expect(await connectionsRepo.find(connectionId)).toMatchObject({ customerId, workerId: worker.id, owner: true });
  });

  it("admits an applicant under review in their own channel, where the owner's decision reaches them", async () => {
    const connectionId = await openTestConnection();
    const applicant = await createTestWorker({ status: 'pending_review' });

    const res = await handler(handshake(connectionId, { 'sec-websocket-protocol': `fixly.v1, token.${await workerToken(applicant.id)}` }));

    expect(res).toMatchObject({ statusCode: 200 });
    expect(await connectionsRepo.find(connectionId)).toMatchObject({ workerId: applicant.id, rooms: [`user:worker:${applicant.id}`] });
  });

  it.each([
    ['no credentials at all', async () => ({})],
    ['a rejected applicant', async () => ({ 'Sec-WebSocket-Protocol': `fixly.v1, token.${await workerToken((await createTestWorker({ status: 'rejected' })).id)}` })],
    ['a forged worker token', async () => ({ 'Sec-WebSocket-Protocol': `fixly.v1, token.${'x'.repeat(43)}` })],
    ['a terminated worker', async () => ({ 'Sec-WebSocket-Protocol': `fixly.v1, token.${await workerToken((await createTestWorker({ status: 'terminated' })).id)}` })],
    ['a malformed customer cookie', async () => ({ Cookie: 'customer_id=../../x' })],
    ['a well-formed customer cookie the server never issued', async () => ({ Cookie: `customer_id=${newId()}` })],
  ])('refuses %s with 401 and stores nothing', async (_what, headers) => {
    const connectionId = await openTestConnection();

    const res = await handler(handshake(connectionId, await headers()));

    expect(res).toEqual({ statusCode: 401 });
    expect(await connectionsRepo.find(connectionId)).toBeUndefined();
  });
});

describe('$disconnect', () => {
  it('forgets the connection and every room it was in', async () => {
    // Prepare
    const connectionId = await openTestConnection();
    const { customerId, cookie } = await issuedCustomer();
    expect(await handler(handshake(connectionId, { Cookie: cookie }))).toMatchObject({ statusCode: 200 });
    await connectionsRepo.join(connectionId, 'job:AbCdEfGhIjKlMnOpQrStUv');

    // Act
    await disconnect({ ...disconnectSample, requestContext: { ...disconnectSample.requestContext, connectionId } });

    // Assess
    expect(await connectionsRepo.find(connectionId)).toBeUndefined();
    expect(await connectionsRepo.members(`user:customer:${customerId}`)).toEqual([]);
    expect(await connectionsRepo.members('job:AbCdEfGhIjKlMnOpQrStUv')).not.toContain(connectionId);
  });
});
