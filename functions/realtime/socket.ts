import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2, Context } from 'aws-lambda';
import { ownerFrom, workerFrom } from '../common/auth/caller';
import { existingCustomer } from '../common/auth/customer';
import type { Identity } from './data/connections';
import { workersRepo } from '../workers/data/workers';
import { logger, withRequestContext } from '../common/logger';

/**
 * The socket functions' shared parts: the event as API Gateway's WebSocket API sends it (with the
 * handshake's headers on $connect), who is behind a handshake, and a wrapper that logs a failure
 * without revealing it (the socket then just gets no answer, or a refused handshake).
 */
export type SocketEvent = APIGatewayProxyWebsocketEventV2 & {
  headers?: Record<string, string | undefined>;
  queryStringParameters?: Record<string, string | undefined>;
};

/** The subprotocol the web client offers and we select when it also carries a worker token. */
export const SOCKET_PROTOCOL = 'fixly.v1';

function header(event: SocketEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] : undefined;
}

/** The offered subprotocols: ours, and the worker's token as `token.<secret>`. */
function offeredProtocols(event: SocketEvent): string[] {
  return (header(event, 'sec-websocket-protocol') ?? '').split(',').map((p) => p.trim()).filter(Boolean);
}

export function selectedProtocol(event: SocketEvent): string | undefined {
  return offeredProtocols(event).includes(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : undefined;
}

/**
 * Everyone a handshake proves: the customer cookie, the owner's session cookie, and an active
 * worker's token (a browser cannot set headers on a WebSocket, so the token rides as a subprotocol).
 */
export async function identify(event: SocketEvent): Promise<Identity> {
  const cookies = (header(event, 'cookie') ?? '').split(';').map((c) => c.trim()).filter(Boolean);
  const token = offeredProtocols(event).find((p) => p.startsWith('token.'))?.slice('token.'.length);
  const identity: Identity = {};
  const customerId = await existingCustomer({ cookies });
  if (customerId) identity.customerId = customerId;
  if (await ownerFrom({ cookies, headers: {} })) identity.owner = true;
  if (token) {
    const session = await workerFrom({ cookies: [], headers: { authorization: `Bearer ${token}` } });
    const worker = session ? await workersRepo.findById(session.subjectId) : undefined;
    // An applicant under review listens too: the owner's decision reaches their open review screen.
    if (worker?.status === 'active' || worker?.status === 'pending_review') identity.workerId = worker.id;
  }
  return identity;
}

export function hasIdentity(identity: Identity): boolean {
  return Boolean(identity.customerId || identity.workerId || identity.owner);
}

export function socketHandler(name: string, fn: (event: SocketEvent) => Promise<APIGatewayProxyResultV2>) {
  return withRequestContext(async (event: SocketEvent, _context?: Context): Promise<APIGatewayProxyResultV2> => {
    try {
      return await fn(event);
    } catch (error) {
      logger.error('Socket handler failed', {
        route: name,
        connectionId: event.requestContext?.connectionId,
        errorName: (error as Error)?.name,
        errorMessage: (error as Error)?.message,
      });
      return { statusCode: 500 };
    }
  }, name);
}
