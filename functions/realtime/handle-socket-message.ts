import { connectionsRepo } from './data/connections';
import { handleFrame } from './socket-messages';
import { socketHandler } from './socket';

/** $default: every client frame (shared/realtime.ts), from a connection $connect admitted. */
export const handler = socketHandler('handle-socket-message', async (event) => {
  const connection = await connectionsRepo.find(event.requestContext.connectionId);
  // A frame from a connection we no longer know (expired, or its $disconnect raced it) changes nothing.
  if (!connection) return { statusCode: 200 };
  const raw = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : (event.body ?? '');
  await handleFrame(connection, raw);
  return { statusCode: 200 };
});
