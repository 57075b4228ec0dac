import { randomUUID } from 'node:crypto';
import { ApiGatewayManagementApiClient, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionsRepo } from '../realtime/data/connections';
import { env } from '../common/env';
import { publish } from '../realtime/realtime';
import { dropTestConnection, framesOf, openTestConnection } from './sockets';

const management = new ApiGatewayManagementApiClient({ region: env.AWS_REGION, endpoint: env.WEBSOCKET_ENDPOINT });
afterAll(() => management.destroy());

describe('test connections (functions/testing/sockets.ts)', () => {
  it('records, in order, the frames posted to a test connection through WEBSOCKET_ENDPOINT', async () => {
    // Prepare
    const id = await openTestConnection();

    // Act
    for (const n of [1, 2]) {
      await management.send(new PostToConnectionCommand({ ConnectionId: id, Data: new TextEncoder().encode(JSON.stringify({ event: 'pong', data: { n } })) }));
    }

    // Assess
    expect(await framesOf(id)).toEqual([
      { event: 'pong', data: { n: 1 } },
      { event: 'pong', data: { n: 2 } },
    ]);
  });

  it('makes a dropped connection gone, so a post answers GoneException', async () => {
    // Prepare
    const id = await openTestConnection();

    // Act
    await dropTestConnection(id);
    const post = management.send(new PostToConnectionCommand({ ConnectionId: id, Data: new Uint8Array([123, 125]) }));

    // Assess
    await expect(post).rejects.toBeInstanceOf(GoneException);
  });

  it("lets publish() reach a room's live members and prune a dropped one", async () => {
    // Prepare
    const room = `job:${randomUUID()}`;
    const [live, stale] = [await openTestConnection(), await openTestConnection()];
    for (const id of [live, stale]) {
      await connectionsRepo.open(id, {}, new Date().toISOString());
      await connectionsRepo.join(id, room);
    }
    await dropTestConnection(stale);

    // Act
    const delivery = await publish(room, 'pong', {});

    // Assess
    expect(delivery).toEqual({ delivered: 1, pruned: 1 });
    expect(await framesOf(live)).toEqual([{ event: 'pong', data: {} }]);
    expect(await connectionsRepo.members(room)).toEqual([live]);
  });
});
