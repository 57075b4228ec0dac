import { connectionsRepo } from './data/connections';
import { logger } from '../common/logger';
import { cameThroughDistribution, NOT_THROUGH_SITE_MESSAGE } from '../common/origin-verify';
import { fromOwnSite } from '../common/same-origin';
import { hasIdentity, identify, selectedProtocol, socketHandler } from './socket';

/**
 * $connect: only someone the handshake proves (a customer, a worker, the owner) gets a connection,
 * already in their user channel(s). The notification history follows the client's first
 * register:user (a connection cannot be written to before $connect answers).
 */
export const handler = socketHandler('connect-socket', async (event) => {
  // A handshake sent to execute-api directly, around CloudFront, is refused before anything is read.
  if (!(await cameThroughDistribution(event.headers))) {
    logger.warn('Socket refused: not through the distribution', { connectionId: event.requestContext.connectionId });
    return { statusCode: 403, body: JSON.stringify({ message: NOT_THROUGH_SITE_MESSAGE }) };
  }
  // A page on another site (or another port of this host) could open the socket with the visitor's
  // cookies and listen to their rooms: the handshake must come from our own pages.
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  if (!fromOwnSite(headers)) {
    logger.warn('Socket refused: another site', { connectionId: event.requestContext.connectionId });
    return { statusCode: 403 };
  }
  const identity = await identify(event);
  if (!hasIdentity(identity)) {
    logger.warn('Socket refused: no identity', { connectionId: event.requestContext.connectionId });
    return { statusCode: 401 };
  }
  await connectionsRepo.open(event.requestContext.connectionId, identity, new Date().toISOString());
  const protocol = selectedProtocol(event);
  return { statusCode: 200, ...(protocol ? { headers: { 'Sec-WebSocket-Protocol': protocol } } : {}) };
});
