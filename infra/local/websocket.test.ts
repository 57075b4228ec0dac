import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  ForbiddenException,
  GetConnectionCommand,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { startLocalWebSocketApi, type LocalWebSocketApi, type LocalWebSocketOptions, type SocketRouteKey, type WebSocketEvent } from './websocket';

type Connect = (event: WebSocketEvent) => Promise<unknown>;

interface Harness {
  api: LocalWebSocketApi;
  url: string;
  server: Server;
  events: Record<SocketRouteKey, WebSocketEvent[]>;
  management: ApiGatewayManagementApiClient;
}

const started: { api: LocalWebSocketApi; server: Server; management: ApiGatewayManagementApiClient; clients: WebSocket[] }[] = [];

afterEach(async () => {
  for (const { api, server, management, clients } of started.splice(0)) {
    for (const c of clients) c.terminate();
    management.destroy();
    server.closeAllConnections();
    await api.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** The local WebSocket API on a fresh HTTP server, with handlers that record their events. */
async function harness(
  behaviour: { connect?: Connect; message?: (event: WebSocketEvent) => Promise<unknown> } = {},
  options: Omit<LocalWebSocketOptions, 'handlerFor'> = {},
): Promise<Harness> {
  const events: Harness['events'] = { $connect: [], $default: [], $disconnect: [] };
  const api = await startLocalWebSocketApi({
    ...options,
    handlerFor: async (routeKey) => async (event) => {
      events[routeKey].push(event);
      if (routeKey === '$connect') return (behaviour.connect ?? (async () => ({ statusCode: 200 })))(event) as never;
      if (routeKey === '$default') return behaviour.message?.(event) as never;
      return undefined;
    },
  });
  const server = createServer((_req, res) => res.end('plain http'));
  api.attach(server, '/ws');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const management = new ApiGatewayManagementApiClient({
    endpoint: api.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  started.push({ api, server, management, clients: [] });
  return { api, url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`, server, events, management };
}

/** A client that has completed its handshake (or the status it was refused with). */
function connect(url: string, protocols: string[] = [], headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const client = new WebSocket(url, protocols, { headers });
    started.at(-1)?.clients.push(client);
    client.once('open', () => resolve(client));
    client.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    client.once('error', reject);
  });
}

function nextMessage(client: WebSocket): Promise<string> {
  return new Promise((resolve) => client.once('message', (data) => resolve(data.toString())));
}

function closed(client: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => client.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

describe('local WebSocket API: /ws', () => {
  it('calls $connect with an API Gateway-shaped event carrying the handshake headers, cookies and query', async () => {
    // Prepare
    const { url, events } = await harness();

    // Act
    await connect(`${url}?room=a&room=b`, [], { Cookie: 'customer_id=c1; other=x', 'User-Agent': 'test-agent' });

    // Assess
    const [event] = events.$connect;
    expect(event).toBeDefined();
    expect(event!.requestContext).toMatchObject({
      routeKey: '$connect',
      eventType: 'CONNECT',
      messageDirection: 'IN',
      stage: 'local',
      apiId: 'local',
      identity: { sourceIp: expect.stringMatching(/127\.0\.0\.1/), userAgent: 'test-agent' },
    });
    expect(event!.requestContext.connectionId).toMatch(/^[A-Za-z0-9+/]{15}=$/);
    expect(event!.requestContext.connectedAt).toBeTypeOf('number');
    expect(event!.requestContext.requestId).toBeTruthy();
    expect(event!.requestContext.domainName).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(event!.requestContext).not.toHaveProperty('messageId');
    expect(event!.headers).toMatchObject({ Cookie: 'customer_id=c1; other=x', 'Sec-WebSocket-Version': '13', 'X-Forwarded-Proto': 'http' });
    expect(event!.multiValueHeaders?.Cookie).toEqual(['customer_id=c1; other=x']);
    expect(event!.queryStringParameters).toEqual({ room: 'b' });
    expect(event!.multiValueQueryStringParameters).toEqual({ room: ['a', 'b'] });
    expect(event!.isBase64Encoded).toBe(false);
  });

  it("adds what CloudFront adds to the handshake: the origin secret and the visitor's address, over what the client sent under those names", async () => {
    // Prepare
    const { url, events } = await harness({}, { originSecret: () => 'the-origin-secret' });

    // Act: a client trying to pass for CloudFront and for another visitor
    await connect(url, [], { 'X-Origin-Verify': 'made-up', 'x-viewer-address': '203.0.113.66' });

    // Assess
    const headers = events.$connect[0]!.headers!;
    const edgeHeaders = Object.entries(headers).filter(([name]) => ['x-origin-verify', 'x-viewer-address'].includes(name.toLowerCase()));
    expect(Object.fromEntries(edgeHeaders)).toEqual({ 'x-origin-verify': 'the-origin-secret', 'x-viewer-address': expect.stringMatching(/127\.0\.0\.1/) });
    expect(events.$connect[0]!.multiValueHeaders!['x-origin-verify']).toEqual(['the-origin-secret']);
  });

  it('adds no origin secret without one, so connect-socket refuses the handshake', async () => {
    // Prepare
    const { url, events } = await harness();

    // Act
    await connect(url, [], { 'x-origin-verify': 'made-up' });

    // Assess
    expect(Object.keys(events.$connect[0]!.headers!).map((n) => n.toLowerCase())).not.toContain('x-origin-verify');
  });

  it('selects the subprotocol $connect answers in Sec-WebSocket-Protocol', async () => {
    // Prepare
    const { url, events } = await harness({ connect: async () => ({ statusCode: 200, headers: { 'Sec-WebSocket-Protocol': 'fixly.v1' } }) });

    // Act
    const client = await connect(url, ['fixly.v1', 'token.secret']);

    // Assess
    expect(client.protocol).toBe('fixly.v1');
    // Browsers join offered subprotocols with ", ", the ws client with ",": handlers must take both.
    expect(events.$connect[0]!.headers!['Sec-WebSocket-Protocol']).toMatch(/^fixly\.v1,\s*token\.secret$/);
  });

  it('refuses the upgrade with the status $connect answers, and calls no $disconnect for it', async () => {
    // Prepare
    const { url, events } = await harness({ connect: async () => ({ statusCode: 401 }) });

    // Act
    const attempt = connect(url);

    // Assess
    await expect(attempt).rejects.toThrow('refused 401');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events.$disconnect).toEqual([]);
  });

  it('refuses with 500 when $connect throws, as API Gateway answers a failed integration', async () => {
    // Prepare
    const { url } = await harness({ connect: async () => Promise.reject(new Error('boom')) });
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);

    // Act
    const attempt = connect(url);

    // Assess
    await expect(attempt).rejects.toThrow('refused 500');
    quiet.mockRestore();
  });

  it('leaves upgrades on other paths to their own listeners (Vite HMR)', async () => {
    // Prepare
    const { server, url, events } = await harness();
    const others: string[] = [];
    server.on('upgrade', (req, socket) => {
      others.push(req.url ?? '');
      socket.destroy();
    });

    // Act
    const attempt = connect(url.replace('/ws', '/vite-hmr'));

    // Assess
    await expect(attempt).rejects.toThrow();
    expect(others).toEqual(['/vite-hmr']);
    expect(events.$connect).toEqual([]);
  });

  it('gives $default each text message as its body, on the connection it came from', async () => {
    // Prepare
    const { url, events } = await harness();
    const client = await connect(url);
    const connectionId = events.$connect[0]!.requestContext.connectionId;

    // Act
    client.send('{"event":"ping"}');
    client.send('{"event":"join:jobRoom","data":{"jobId":"j1"}}');

    // Assess
    await vi.waitFor(() => expect(events.$default).toHaveLength(2));
    expect(events.$default.map((e) => e.body).sort()).toEqual(['{"event":"join:jobRoom","data":{"jobId":"j1"}}', '{"event":"ping"}']);
    for (const event of events.$default) {
      expect(event.requestContext).toMatchObject({ routeKey: '$default', eventType: 'MESSAGE', connectionId });
      expect(event.requestContext.messageId).toBeTruthy();
      expect(event.isBase64Encoded).toBe(false);
    }
  });

  it("sends the client API Gateway's error frame when $default throws", async () => {
    // Prepare
    const { url, events } = await harness({ message: async () => Promise.reject(new Error('boom')) });
    const client = await connect(url);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);

    // Act
    const answer = nextMessage(client);
    client.send('{"event":"ping"}');

    // Assess
    expect(JSON.parse(await answer)).toEqual({
      message: 'Internal server error',
      connectionId: events.$connect[0]!.requestContext.connectionId,
      requestId: events.$default[0]!.requestContext.requestId,
    });
    quiet.mockRestore();
  });

  it('closes the connection with 1003 on a binary frame, as API Gateway does', async () => {
    // Prepare
    const { url, events } = await harness();
    const client = await connect(url);

    // Act
    const end = closed(client);
    client.send(Buffer.from([1, 2, 3]), { binary: true });

    // Assess
    expect((await end).code).toBe(1003);
    expect(events.$default).toEqual([]);
  });

  it('calls $disconnect once when the client closes, with its code', async () => {
    // Prepare
    const { url, events } = await harness();
    const client = await connect(url);
    const connectionId = events.$connect[0]!.requestContext.connectionId;

    // Act
    client.close(1000, 'bye');

    // Assess
    await vi.waitFor(() => expect(events.$disconnect).toHaveLength(1));
    expect(events.$disconnect[0]!.requestContext).toMatchObject({
      routeKey: '$disconnect',
      eventType: 'DISCONNECT',
      connectionId,
      disconnectStatusCode: 1000,
      disconnectReason: 'bye',
    });
  });

  it('closes an idle connection after the idle timeout (1001), and calls $disconnect', async () => {
    // Prepare
    const { url, events } = await harness({}, { idleTimeoutMs: 150 });
    const client = await connect(url);

    // Act
    const end = await closed(client);

    // Assess
    expect(end.code).toBe(1001);
    await vi.waitFor(() => expect(events.$disconnect).toHaveLength(1));
  });

  it('closes every socket on disconnectAll, waiting for their $disconnect handlers', async () => {
    // Prepare
    const { api, url, events } = await harness();
    const clients = await Promise.all([connect(url), connect(url)]);
    const ends = clients.map(closed);

    // Act
    await api.disconnectAll();

    // Assess
    expect((await Promise.all(ends)).map((e) => e.code)).toEqual([1001, 1001]);
    expect(events.$disconnect).toHaveLength(2);
  });
});

describe('local WebSocket API: @connections through @aws-sdk/client-apigatewaymanagementapi', () => {
  it('delivers PostToConnection data to the client as a text frame', async () => {
    // Prepare
    const { url, events, management } = await harness();
    const client = await connect(url);
    const ConnectionId = events.$connect[0]!.requestContext.connectionId;

    // Act
    const received = nextMessage(client);
    await management.send(new PostToConnectionCommand({ ConnectionId, Data: new TextEncoder().encode('{"event":"pong","data":{}}') }));

    // Assess
    expect(await received).toBe('{"event":"pong","data":{}}');
  });

  it('answers GetConnection with connectedAt, identity and lastActiveAt', async () => {
    // Prepare
    const { url, events, management } = await harness();
    const client = await connect(url, [], { 'User-Agent': 'test-agent' });
    const ConnectionId = events.$connect[0]!.requestContext.connectionId;
    client.send('{"event":"ping"}');
    await vi.waitFor(() => expect(events.$default).toHaveLength(1));

    // Act
    const got = await management.send(new GetConnectionCommand({ ConnectionId }));

    // Assess
    expect(got.ConnectedAt?.getTime()).toBe(Math.floor(events.$connect[0]!.requestContext.connectedAt));
    expect(got.Identity).toEqual({ SourceIp: expect.stringMatching(/127\.0\.0\.1/), UserAgent: 'test-agent' });
    expect(got.LastActiveAt!.getTime()).toBeGreaterThanOrEqual(got.ConnectedAt!.getTime());
  });

  it('closes the socket on DeleteConnection and calls $disconnect; later posts are GoneException', async () => {
    // Prepare
    const { url, events, management } = await harness();
    const client = await connect(url);
    const ConnectionId = events.$connect[0]!.requestContext.connectionId;
    const end = closed(client);

    // Act
    await management.send(new DeleteConnectionCommand({ ConnectionId }));

    // Assess
    expect((await end).code).toBe(1000);
    await vi.waitFor(() => expect(events.$disconnect).toHaveLength(1));
    await expect(management.send(new PostToConnectionCommand({ ConnectionId, Data: new Uint8Array([123, 125]) }))).rejects.toBeInstanceOf(GoneException);
  });

  it('answers GoneException (410) for an unknown connection, for every operation', async () => {
    // Prepare
    const { management } = await harness();
    const ConnectionId = 'L0SM9cOFvHcCIhw=';

    // Act
    const outcomes = await Promise.allSettled([
      management.send(new PostToConnectionCommand({ ConnectionId, Data: new Uint8Array([1]) })),
      management.send(new GetConnectionCommand({ ConnectionId })),
      management.send(new DeleteConnectionCommand({ ConnectionId })),
    ]);

    // Assess
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const error = (outcome as PromiseRejectedResult).reason as GoneException;
      expect(error).toBeInstanceOf(GoneException);
      expect(error.$metadata.httpStatusCode).toBe(410);
    }
  });

  it('answers GoneException once the client has closed', async () => {
    // Prepare
    const { url, events, management } = await harness();
    const client = await connect(url);
    const ConnectionId = events.$connect[0]!.requestContext.connectionId;
    client.close();
    await vi.waitFor(() => expect(events.$disconnect).toHaveLength(1));

    // Act
    const post = management.send(new PostToConnectionCommand({ ConnectionId, Data: new Uint8Array([1]) }));

    // Assess
    await expect(post).rejects.toBeInstanceOf(GoneException);
  });

  it('refuses a call without an Authorization header, as execute-api does (ForbiddenException)', async () => {
    // Prepare
    const { api, url, events, management } = await harness();
    await connect(url);
    const id = events.$connect[0]!.requestContext.connectionId;

    // Act
    const unsigned = await fetch(`${api.endpoint}/@connections/${encodeURIComponent(id)}`, { method: 'POST', body: 'x' });
    const elsewhere = management.send(new PostToConnectionCommand({ ConnectionId: `${id}/extra`, Data: new Uint8Array([1]) }));

    // Assess
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get('x-amzn-errortype')).toBe('ForbiddenException');
    await expect(elsewhere).rejects.toSatisfy((e: Error) => e instanceof GoneException || e instanceof ForbiddenException);
  });

  it('answers @connections calls later by managementLatencyMs, delivering at once', async () => {
    // Prepare
    const { url, events, management } = await harness({}, { managementLatencyMs: 200 });
    const client = await connect(url);
    const ConnectionId = events.$connect[0]!.requestContext.connectionId;
    const start = performance.now();
    const received = nextMessage(client).then(() => performance.now() - start);

    // Act
    await management.send(new PostToConnectionCommand({ ConnectionId, Data: new TextEncoder().encode('{}') }));
    const answered = performance.now() - start;

    // Assess
    expect(answered).toBeGreaterThanOrEqual(195);
    expect(await received).toBeLessThan(answered);
  });

  it('refuses a post above 128 KB with PayloadTooLargeException (413)', async () => {
    // Prepare
    const { url, events, management } = await harness();
    await connect(url);
    const ConnectionId = events.$connect[0]!.requestContext.connectionId;

    // Act
    const post = management.send(new PostToConnectionCommand({ ConnectionId, Data: new Uint8Array(128 * 1024 + 1) }));

    // Assess
    await expect(post).rejects.toMatchObject({ name: 'PayloadTooLargeException', $metadata: { httpStatusCode: 413 } });
  });
});

describe('local WebSocket API: the /_local inspection API for tests', () => {
  it('registers a connection that records what is posted to it, in order', async () => {
    // Prepare
    const { api, management } = await harness();
    const { connectionId } = (await (await fetch(`${api.endpoint}/_local/connections`, { method: 'POST' })).json()) as { connectionId: string };

    // Act
    for (const text of ['{"n":1}', '{"n":2}']) {
      await management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode(text) }));
    }
    const res = await fetch(`${api.endpoint}/_local/connections/${encodeURIComponent(connectionId)}/frames`);

    // Assess
    expect(connectionId).toMatch(/^[A-Za-z0-9+/]{15}=$/);
    expect(await res.json()).toEqual({ connectionId, gone: false, frames: ['{"n":1}', '{"n":2}'] });
  });

  it('makes a registered connection gone: the next post is GoneException, its frames stay readable', async () => {
    // Prepare
    const { api, management } = await harness();
    const { connectionId } = (await (await fetch(`${api.endpoint}/_local/connections`, { method: 'POST' })).json()) as { connectionId: string };
    await management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode('{"n":1}') }));

    // Act
    const dropped = await fetch(`${api.endpoint}/_local/connections/${encodeURIComponent(connectionId)}`, { method: 'DELETE' });
    const post = management.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new Uint8Array([1]) }));

    // Assess
    expect(dropped.status).toBe(204);
    await expect(post).rejects.toBeInstanceOf(GoneException);
    const res = await fetch(`${api.endpoint}/_local/connections/${encodeURIComponent(connectionId)}/frames`);
    expect(await res.json()).toEqual({ connectionId, gone: true, frames: ['{"n":1}'] });
  });

  it('answers 404 for the frames of a connection it never registered', async () => {
    // Prepare
    const { api } = await harness();

    // Act
    const res = await fetch(`${api.endpoint}/_local/connections/nope/frames`);

    // Assess
    expect(res.status).toBe(404);
  });

  it('lists open connections, real sockets and recorders alike', async () => {
    // Prepare
    const { api, url } = await harness();
    await connect(url);
    await fetch(`${api.endpoint}/_local/connections`, { method: 'POST' });

    // Act
    const { connections } = (await (await fetch(`${api.endpoint}/_local/connections`)).json()) as { connections: { kind: string }[] };

    // Assess
    expect(connections.map((c) => c.kind).sort()).toEqual(['recorder', 'socket']);
  });
});
