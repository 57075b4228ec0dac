import { createServer, request as forwardRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../local/http-io';

/** Far past any call the functions make. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * A loopback HTTP proxy in front of one local service (dynalite, the local S3, Scheduler or
 * Stripe) that forwards everything until a test sets a fault. The functions' real SDK clients
 * talk to it as to the service, so what a test proves is what the SDK's own retries, timeouts and
 * error parsing do with a fault on the wire, not what a mock was told to return.
 */
export type Fault =
  /** The service is down: every connection is dropped before any answer. */
  | { kind: 'refuse' }
  /** The service answers this instead (a throttling error, a 500). */
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body: string }
  /** The call never returns: the client's timeout decides. */
  | { kind: 'hang' }
  /** The service does the work, but the answer is lost: the client's timeout decides. */
  | { kind: 'forward-then-hang' };

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FaultProxy {
  url: string;
  /**
   * From now on, requests `when` accepts (all, without it) meet `fault`, the first `times` of
   * them (all, without it); `undefined` heals.
   */
  set(fault: Fault | undefined, when?: (request: ProxiedRequest) => boolean, times?: number): void;
  /** How many requests met the fault since it was set. */
  readonly faulted: number;
  close(): Promise<void>;
}


export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  let fault: Fault | undefined;
  let when: ((request: ProxiedRequest) => boolean) | undefined;
  let faulted = 0;
  let limit = Infinity;
  const hanging = new Set<ServerResponse>();

  const forward = (req: IncomingMessage, body: Buffer, res?: ServerResponse) =>
    new Promise<void>((resolve, reject) => {
      const out = forwardRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          if (!res) {
            answer.resume();
            answer.on('end', resolve);
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', resolve);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req, MAX_BODY_BYTES, () => new Error('Request body too large'));
      const seen: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body: body.toString() };
      const current = fault && faulted < limit && (!when || when(seen)) ? fault : undefined;
      if (!current) return forward(req, body, res);
      faulted += 1;
      switch (current.kind) {
        case 'refuse':
          req.socket.destroy();
          return;
        case 'answer':
          res.writeHead(current.status, { 'content-type': 'application/json', ...current.headers });
          res.end(current.body);
          return;
        case 'forward-then-hang':
          await forward(req, body);
          hanging.add(res);
          return;
        case 'hang':
          hanging.add(res);
          return;
      }
    })().catch(() => {
      if (!res.headersSent) res.writeHead(502).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set(next, predicate, times = Infinity) {
      fault = next;
      when = predicate;
      faulted = 0;
      limit = times;
    },
    get faulted() {
      return faulted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** DynamoDB's JSON error, as the SDK parses it (`__type` names the exception). */
export function dynamoError(type: string, message: string): Fault {
  return {
    kind: 'answer',
    status: 400,
    headers: { 'content-type': 'application/x-amz-json-1.0' },
    body: JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message }),
  };
}

/** Whether a DynamoDB call is this operation (its X-Amz-Target header). */
export const dynamoOperation =
  (...operations: string[]) =>
  (request: ProxiedRequest) =>
    operations.some((operation) => request.headers['x-amz-target'] === `DynamoDB_20120810.${operation}`);
