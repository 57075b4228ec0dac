import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/edge';
import { socketRoutes } from '../../shared/routes';
import { atTheEdge, lambdaContext, loadHandler, normalizeResult } from './http-api';
import { readBody, sendJson } from './http-io';

/**
 * The local API Gateway WebSocket API: `/ws` on the stack's own HTTP server
 * calls the `$connect` / `$default` / `$disconnect` handlers of shared/routes.ts `socketRoutes` with
 * events shaped as API Gateway sends them, and a management endpoint on its own loopback port
 * answers `@connections` (POST, GET, DELETE) as execute-api does, so functions/realtime/realtime.ts runs
 * unchanged through `@aws-sdk/client-apigatewaymanagementapi` with `endpoint: WEBSOCKET_ENDPOINT`.
 *
 * Behaviours kept from API Gateway because code that works here must work there:
 * - a connection is postable only once `$connect` answered 200 (a post from inside `$connect` is 410);
 * - `$connect`'s Sec-WebSocket-Protocol header is the selected subprotocol; a client that offered
 *   subprotocols and gets none back is refused by browsers, as in AWS;
 * - each message invokes `$default` on its own, concurrently, as Lambda would (no ordering);
 *   its return value is dropped (no route response), a thrown error sends the client API Gateway's
 *   `{"message":"Internal server error",...}` frame;
 * - binary frames close the connection with 1003; messages above 128 KB with 1009;
 * - idle connections close after 10 minutes, every connection after 2 hours;
 * - `$disconnect` is called once per accepted connection, whoever closed it.
 *
 * The management endpoint also offers a local-only inspection API for handler tests, which have no
 * browser: `POST /_local/connections` registers a connection that records what is posted to it,
 * `GET /_local/connections/{id}/frames` reads that back, `DELETE /_local/connections/{id}` makes it
 * gone (the next post is 410). `GET /_local/connections` lists every open connection.
 */

export type SocketRouteKey = (typeof socketRoutes)[number]['routeKey'];

interface Identity {
  sourceIp: string;
  userAgent?: string;
}

/**
 * What API Gateway passes to a WebSocket route's Lambda (proxy integration). @types/aws-lambda's
 * APIGatewayProxyWebsocketEventV2 plus what it leaves out: `$connect`'s headers and query string,
 * requestContext.identity, and `$disconnect`'s status code and reason.
 */
export interface WebSocketEvent {
  requestContext: {
    routeKey: SocketRouteKey;
    eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT';
    messageId?: string;
    extendedRequestId: string;
    requestTime: string;
    messageDirection: 'IN';
    stage: string;
    connectedAt: number;
    requestTimeEpoch: number;
    identity: Identity;
    requestId: string;
    domainName: string;
    connectionId: string;
    apiId: string;
    disconnectStatusCode?: number;
    disconnectReason?: string;
  };
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  queryStringParameters?: Record<string, string>;
  multiValueQueryStringParameters?: Record<string, string[]>;
  body?: string;
  isBase64Encoded: boolean;
}

export type SocketHandler = (event: WebSocketEvent, context: Context) => Promise<APIGatewayProxyResultV2 | void>;

export interface LocalWebSocketOptions {
  /** The handler behind a route key; by default functions/<area>/<name>.ts of socketRoutes, loaded like the HTTP handlers. */
  handlerFor?: (routeKey: SocketRouteKey) => Promise<SocketHandler>;
  /** The stage in events and in the management endpoint's path (default 'local'). */
  stage?: string;
  /** API Gateway closes a connection after 10 minutes without a message from the client. */
  idleTimeoutMs?: number;
  /** ...and every connection after 2 hours. */
  maxConnectionMs?: number;
  /**
   * Answers each @connections call this much later (delivery itself is not delayed): loopback
   * answers in well under a millisecond, API Gateway from a Lambda in milliseconds, and a benchmark
   * can model that. 0 by default.
   */
  managementLatencyMs?: number;
  /**
   * The origin secret added to every handshake as CloudFront adds it to /ws requests (with the
   * visitor's address: infra/local/http-api.ts atTheEdge), asked at each handshake. Absent: none is
   * added, and connect-socket refuses every handshake.
   */
  originSecret?: () => string | undefined;
}

export interface LocalWebSocketApi {
  /** The management endpoint, `http://127.0.0.1:<port>/<stage>`: what WEBSOCKET_ENDPOINT holds. */
  endpoint: string;
  /** Serves WebSocket upgrades on `path` of `server`; other upgrade paths (Vite's HMR) are left alone. */
  attach(server: Server, path?: string): void;
  /** Closes every socket (1001), waiting for their `$disconnect` handlers; the endpoint stays up. */
  disconnectAll(): Promise<void>;
  close(): Promise<void>;
}

const API_ID = 'local';
/** API Gateway's limits: 128 KB per message (and per PostToConnection), 10 min idle, 2 h in all. */
const MAX_MESSAGE_BYTES = 128 * 1024;
const IDLE_TIMEOUT_MS = 10 * 60 * 1000;
const MAX_CONNECTION_MS = 2 * 60 * 60 * 1000;
/** How long a shutdown waits for clients to answer the close and for `$disconnect` handlers. */
const SHUTDOWN_GRACE_MS = 3000;

interface Connection {
  id: string;
  connectedAt: number;
  lastActiveAt: number;
  identity: Identity;
  /** A real client; absent for a connection registered through the inspection API. */
  socket?: WebSocket;
  /** What was posted to a registered (test) connection. */
  frames?: string[];
  gone: boolean;
  timers: NodeJS.Timeout[];
}

/** API Gateway's connection ids are 16 base64 characters ending in '=' (e.g. "L0SM9cOFvHcCIhw="). */
export function newConnectionId(): string {
  return randomBytes(11).toString('base64');
}

/** "09/Feb/2024:10:00:00 +0000", as API Gateway writes requestTime. */
function requestTime(at: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(at.getUTCDate())}/${months[at.getUTCMonth()]}/${at.getUTCFullYear()}:${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())} +0000`;
}

/** Header names as the client sent them (API Gateway keeps their case): the last value, and all of them. */
function gatewayHeaders(rawHeaders: string[]): { headers: Record<string, string>; multiValueHeaders: Record<string, string[]> } {
  const multiValueHeaders: Record<string, string[]> = {};
  const byLowerName = new Map<string, string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = byLowerName.get(rawHeaders[i]!.toLowerCase()) ?? rawHeaders[i]!;
    byLowerName.set(name.toLowerCase(), name);
    (multiValueHeaders[name] ??= []).push(rawHeaders[i + 1]!);
  }
  const headers = Object.fromEntries(Object.entries(multiValueHeaders).map(([name, values]) => [name, values.at(-1)!]));
  return { headers, multiValueHeaders };
}

function gatewayQuery(url: URL): Pick<WebSocketEvent, 'queryStringParameters' | 'multiValueQueryStringParameters'> {
  if (!url.search) return {};
  const multi: Record<string, string[]> = {};
  for (const [k, v] of url.searchParams) (multi[k] ??= []).push(v);
  return {
    queryStringParameters: Object.fromEntries(Object.entries(multi).map(([k, values]) => [k, values.at(-1)!])),
    multiValueQueryStringParameters: multi,
  };
}

/** Refuses a handshake the way API Gateway answers it: a plain HTTP response, then the socket closes. */
function refuse(socket: Duplex, status: number, body?: string): void {
  if (!socket.writable) return void socket.destroy();
  const text = body ?? JSON.stringify({ message: STATUS_CODES[status] ?? 'Error' });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Connection: close\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}

/** What ws itself would refuse with 400: checked before `$connect` runs, so no refused handshake reaches a handler. */
function badHandshake(req: IncomingMessage): boolean {
  return (
    req.method !== 'GET' ||
    req.headers.upgrade?.toLowerCase() !== 'websocket' ||
    !/^[+/0-9A-Za-z]{22}==$/.test(req.headers['sec-websocket-key'] ?? '') ||
    !['8', '13'].includes(req.headers['sec-websocket-version'] ?? '')
  );
}

function headerValue(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  const found = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === name);
  return found === undefined ? undefined : String(found[1]);
}

class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const defaultHandlerFor = (routeKey: SocketRouteKey): Promise<SocketHandler> => {
  const route = socketRoutes.find((r) => r.routeKey === routeKey)!;
  return loadHandler(route.name) as unknown as Promise<SocketHandler>;
};

export async function startLocalWebSocketApi(options: LocalWebSocketOptions = {}): Promise<LocalWebSocketApi> {
  const stage = options.stage ?? 'local';
  const handlerFor = options.handlerFor ?? defaultHandlerFor;
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const maxConnectionMs = options.maxConnectionMs ?? MAX_CONNECTION_MS;
  const latencyMs = options.managementLatencyMs ?? 0;
  const connections = new Map<string, Connection>();
  /** Registered test connections stay readable after they are made gone. */
  const recorded = new Map<string, Connection>();
  const running = new Set<Promise<unknown>>();
  const selectedProtocol = new WeakMap<IncomingMessage, string>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
    handleProtocols: (_offered, req) => selectedProtocol.get(req) ?? false,
  });
  let domainName = '127.0.0.1';
  let closing = false;

  const context = (connection: Pick<Connection, 'id' | 'connectedAt' | 'identity'>, routeKey: SocketRouteKey) => {
    const now = new Date();
    const eventType = routeKey === '$connect' ? 'CONNECT' : routeKey === '$disconnect' ? 'DISCONNECT' : 'MESSAGE';
    return {
      routeKey,
      eventType,
      ...(eventType === 'MESSAGE' ? { messageId: newConnectionId() } : {}),
      extendedRequestId: randomBytes(6).toString('base64'),
      requestTime: requestTime(now),
      messageDirection: 'IN',
      stage,
      connectedAt: connection.connectedAt,
      requestTimeEpoch: now.getTime(),
      identity: connection.identity,
      requestId: randomUUID(),
      // The API's own domain, where @connections lives (as in AWS, even behind CloudFront).
      domainName,
      connectionId: connection.id,
      apiId: API_ID,
    } satisfies WebSocketEvent['requestContext'];
  };

  /** One Lambda invocation; tracked so a shutdown can wait for it. */
  const invoke = (routeKey: SocketRouteKey, event: WebSocketEvent) => {
    const name = socketRoutes.find((r) => r.routeKey === routeKey)!.name;
    const call = handlerFor(routeKey).then((handler) => handler(event, lambdaContext(name)));
    running.add(call);
    void call.finally(() => running.delete(call)).catch(() => undefined);
    return call;
  };

  const disconnected = (connection: Connection, code: number, reason: string) => {
    for (const timer of connection.timers) clearTimeout(timer);
    connection.gone = true;
    connections.delete(connection.id);
    const event: WebSocketEvent = {
      requestContext: { ...context(connection, '$disconnect'), disconnectStatusCode: code, disconnectReason: reason },
      headers: { Host: domainName, 'X-Forwarded-For': connection.identity.sourceIp },
      multiValueHeaders: { Host: [domainName], 'X-Forwarded-For': [connection.identity.sourceIp] },
      isBase64Encoded: false,
    };
    invoke('$disconnect', event).catch((error: unknown) => console.error(`[local ws] $disconnect of ${connection.id} failed:`, error));
  };

  const message = (connection: Connection, data: RawData, isBinary: boolean) => {
    const socket = connection.socket!;
    if (isBinary) return socket.close(1003, 'Binary frames are not supported');
    connection.lastActiveAt = Date.now();
    armIdle(connection);
    const body = (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer)).toString('utf8');
    const requestContext = context(connection, '$default');
    invoke('$default', { requestContext, body, isBase64Encoded: false }).catch((error: unknown) => {
      console.error(`[local ws] $default for ${connection.id} failed:`, error);
      // What API Gateway sends the client when the integration fails.
      if (socket.readyState === socket.OPEN) {
        socket.send(JSON.stringify({ message: 'Internal server error', connectionId: connection.id, requestId: requestContext.requestId }));
      }
    });
  };

  const armIdle = (connection: Connection) => {
    clearTimeout(connection.timers[0]);
    connection.timers[0] = setTimeout(() => connection.socket?.close(1001, 'Going away'), idleTimeoutMs).unref();
  };

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Errors on a socket nobody has taken yet (the client went away) must not crash the stack.
    socket.on('error', () => undefined);
    if (closing) return refuse(socket, 503);
    if (badHandshake(req)) return refuse(socket, 400);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const connection: Connection = {
      id: newConnectionId(),
      connectedAt: Date.now(),
      lastActiveAt: Date.now(),
      identity: { sourceIp: (socket as Socket).remoteAddress ?? '127.0.0.1', ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}) },
      gone: false,
      timers: [],
    };
    const sent = gatewayHeaders(req.rawHeaders);
    const forwarded = { 'X-Forwarded-For': connection.identity.sourceIp, 'X-Forwarded-Port': String((socket as Socket).localPort ?? ''), 'X-Forwarded-Proto': 'http' };
    const headers = atTheEdge({ ...sent.headers, ...forwarded }, connection.identity.sourceIp, options.originSecret?.());
    // What the fronts set is one value; a client's own headers keep all theirs.
    const set = new Set([...Object.keys(forwarded), VIEWER_ADDRESS_HEADER, ORIGIN_VERIFY_HEADER]);
    const multiValueHeaders = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name, set.has(name) ? [value] : (sent.multiValueHeaders[name] ?? [value])]),
    );
    const event: WebSocketEvent = {
      requestContext: context(connection, '$connect'),
      headers,
      multiValueHeaders,
      ...gatewayQuery(url),
      isBase64Encoded: false,
    };
    let result;
    try {
      result = normalizeResult((await invoke('$connect', event)) ?? { statusCode: 200 });
    } catch (error) {
      console.error('[local ws] $connect failed:', error);
      return refuse(socket, 500, JSON.stringify({ message: 'Internal server error' }));
    }
    const status = result.statusCode ?? 200;
    if (status !== 200) return refuse(socket, status, result.body);
    if (socket.destroyed || !socket.writable || !socket.readable || closing) {
      // Accepted by the handler after the client left: API Gateway still calls $disconnect.
      return disconnected(connection, 1006, 'Client went away during $connect');
    }
    const protocol = headerValue(result.headers, 'sec-websocket-protocol');
    if (protocol) selectedProtocol.set(req, protocol);
    wss.handleUpgrade(req, socket, head, (ws) => {
      connection.socket = ws;
      connections.set(connection.id, connection);
      armIdle(connection);
      connection.timers[1] = setTimeout(() => ws.close(1001, 'Going away'), maxConnectionMs).unref();
      ws.on('message', (data, isBinary) => message(connection, data, isBinary));
      ws.on('error', () => undefined);
      ws.once('close', (code, reason) => disconnected(connection, code, reason.toString('utf8')));
    });
  };

  // ---- The management endpoint (execute-api's @connections) and the inspection API ------------
  const post = (connection: Connection | undefined, body: Buffer) => {
    if (!connection || connection.gone) throw gone();
    if (body.length > MAX_MESSAGE_BYTES) throw new GatewayError(413, 'PayloadTooLargeException', 'Message too long');
    if (connection.frames) return void connection.frames.push(body.toString('utf8'));
    const socket = connection.socket!;
    if (socket.readyState !== socket.OPEN) throw gone();
    // API Gateway sends posted data as a text frame when it is text, which is what realtime.ts posts.
    const text = new TextDecoder('utf-8', { fatal: true });
    try {
      socket.send(text.decode(body));
    } catch {
      socket.send(body, { binary: true });
    }
  };

  const describe = (connection: Connection | undefined) => {
    if (!connection || connection.gone) throw gone();
    return {
      connectedAt: new Date(connection.connectedAt).toISOString(),
      identity: connection.identity,
      lastActiveAt: new Date(connection.lastActiveAt).toISOString(),
    };
  };

  const remove = (connection: Connection | undefined) => {
    if (!connection || connection.gone) throw gone();
    if (connection.socket) connection.socket.close(1000, 'Connection closed by the server');
    else {
      connection.gone = true;
      connections.delete(connection.id);
    }
  };

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const prefix = `/${stage}/`;
    if (!url.pathname.startsWith(prefix)) throw forbidden('Forbidden');
    const parts = url.pathname.slice(prefix.length).split('/').map((p) => decodeURIComponent(p));
    const body = await readBody(req, MAX_MESSAGE_BYTES + 1, () => new GatewayError(413, 'PayloadTooLargeException', 'Message too long'));

    if (parts[0] === '@connections' && parts.length === 2 && parts[1]) {
      // Credentials are the fixed local ones and the callers are this process's own handlers, so
      // verifying SigV4 would only re-test the SDK's signer (the local S3 already does, with the
      // same keys). An unsigned call is still refused, as AWS does, so a caller that forgot to sign
      // (a bare fetch) fails here as it would there.
      if (!req.headers.authorization) throw forbidden('Missing Authentication Token');
      const connection = connections.get(parts[1]);
      let answer: () => void;
      try {
        if (req.method === 'POST') {
          post(connection, body);
          answer = () => sendJson(res, 200, {});
        } else if (req.method === 'GET') {
          const description = describe(connection);
          answer = () => sendJson(res, 200, description);
        } else if (req.method === 'DELETE') {
          remove(connection);
          answer = () => {
            res.statusCode = 204;
            res.end();
          };
        } else throw forbidden('Missing Authentication Token');
      } finally {
        if (latencyMs) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      }
      return answer();
    }

    if (parts[0] === '_local' && parts[1] === 'connections') {
      if (parts.length === 2 && req.method === 'POST') {
        const connection: Connection = {
          id: newConnectionId(),
          connectedAt: Date.now(),
          lastActiveAt: Date.now(),
          identity: { sourceIp: '127.0.0.1', userAgent: 'local-test-connection' },
          frames: [],
          gone: false,
          timers: [],
        };
        connections.set(connection.id, connection);
        recorded.set(connection.id, connection);
        return sendJson(res, 201, { connectionId: connection.id });
      }
      if (parts.length === 2 && req.method === 'GET') {
        return sendJson(res, 200, {
          connections: [...connections.values()].map((c) => ({ connectionId: c.id, kind: c.socket ? 'socket' : 'recorder', ...describe(c) })),
        });
      }
      const connection = recorded.get(parts[2] ?? '');
      if (!connection) throw new GatewayError(404, 'NotFoundException', `No test connection ${parts[2]}`);
      if (parts.length === 4 && parts[3] === 'frames' && req.method === 'GET') {
        return sendJson(res, 200, { connectionId: connection.id, gone: connection.gone, frames: connection.frames });
      }
      if (parts.length === 3 && req.method === 'DELETE') {
        connection.gone = true;
        connections.delete(connection.id);
        res.statusCode = 204;
        return void res.end();
      }
    }
    throw forbidden('Missing Authentication Token');
  };

  const management = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (!(error instanceof GatewayError)) console.error('[local ws] management API:', error);
      const e = error instanceof GatewayError ? error : new GatewayError(500, 'InternalServerErrorException', 'Internal server error');
      // The SDK reads the error's name from this header, as from execute-api.
      res.setHeader('x-amzn-ErrorType', e.type);
      sendJson(res, e.status, { message: e.message });
    });
  });
  await new Promise<void>((resolve, reject) => {
    management.once('error', reject);
    management.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = management.address() as AddressInfo;
  domainName = `127.0.0.1:${port}`;

  const disconnectAll = async () => {
    const open = [...connections.values()].filter((c) => c.socket);
    await Promise.race([
      Promise.all(
        open.map(
          (c) =>
            new Promise<void>((resolve) => {
              c.socket!.once('close', () => resolve());
              c.socket!.close(1001, 'Going away');
            }),
        ),
      ),
      new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref()),
    ]);
    for (const c of open) if (c.socket!.readyState !== c.socket!.CLOSED) c.socket!.terminate();
    await Promise.race([Promise.allSettled([...running]), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_GRACE_MS).unref())]);
  };

  let closed: Promise<void> | undefined;
  return {
    endpoint: `http://${domainName}/${stage}`,
    attach(server, path = '/ws') {
      server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) return;
        void upgrade(req, socket, head).catch((error: unknown) => {
          console.error('[local ws] upgrade failed:', error);
          socket.destroy();
        });
      });
    },
    disconnectAll,
    close: () =>
      (closed ??= (async () => {
        closing = true;
        await disconnectAll();
        wss.close();
        management.closeAllConnections();
        await new Promise<void>((resolve, reject) => management.close((err) => (err ? reject(err) : resolve())));
      })()),
  };
}

function gone(): GatewayError {
  return new GatewayError(410, 'GoneException', 'Connection is gone');
}

function forbidden(message: string): GatewayError {
  return new GatewayError(403, 'ForbiddenException', message);
}
