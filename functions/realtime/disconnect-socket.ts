import { connectionsRepo } from './data/connections';
import { socketHandler } from './socket';

/** $disconnect: the connection and its room memberships go at once (TTL catches a missed one). */
export const handler = socketHandler('disconnect-socket', async (event) => {
  await connectionsRepo.close(event.requestContext.connectionId);
  return { statusCode: 200 };
});
