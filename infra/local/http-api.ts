import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyResultV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/edge';
import { routeKey, routes, type RouteDef } from '../../shared/routes';
import { securityHeadersFor } from '../../shared/security-headers';
import { functionFile } from '../../shared/function-files';

/** API Gateway HTTP APIs refuse payloads above 10 MB before any Lambda runs. */
const GATEWAY_PAYLOAD_LIMIT = 10 * 1024 * 1024;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

interface CompiledRoute {
  route: RouteDef;
  method: string;
  pattern: RegExp;
  paramNames: string[];
}

function compile(route: RouteDef): CompiledRoute {
  const paramNames: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\+?\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      paramNames.push(param[1]!);
      return segment.endsWith('+}') ? '(.+)' : '([^/]+)';
    })
    .join('/');
  return { route, method: route.method, pattern: new RegExp(`^${source}$`), paramNames };
}

const compiled = routes.map(compile);

/** A path parameter whose percent-escapes do not decode (`%E0%A4%A`, `%zz`): the caller's mistake. */
export class MalformedPathError extends Error {
  constructor() {
    super('The address has a malformed percent-escape (%). Check the link.');
    this.name = 'BadRequestError';
  }
}

function decodeParam(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new MalformedPathError();
  }
}

export function matchRoute(
  method: string,
  pathname: string,
): { route: RouteDef; params: Record<string, string> } | undefined {
  // Literal segments beat parameters, as in API Gateway: try routes with fewer parameters first.
  const candidates = compiled
    .filter((c) => c.method === method)
    .sort((a, b) => a.paramNames.length - b.paramNames.length);
  for (const c of candidates) {
    const m = c.pattern.exec(pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    c.paramNames.forEach((name, i) => {
      params[name] = decodeParam(m[i + 1]!);
    });
    return { route: c.route, params };
  }
  return undefined;
}

const handlers = new Map<string, Promise<Handler>>();

/** Imported on first use, like a Lambda cold start; the same module thereafter. */
export function loadHandler(name: string): Promise<Handler> {
  let loaded = handlers.get(name);
  if (!loaded) {
    const file = pathToFileURL(path.join(root, functionFile(name))).href;
    loaded = import(file).then((mod: { handler: Handler }) => mod.handler);
    handlers.set(name, loaded);
  }
  return loaded;
}

export function lambdaContext(functionName: string, timeoutMs = 10_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

const textual = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

interface RequestLike {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  sourceIp: string;
}

/** A payload format 2.0 event, shaped as API Gateway builds it. */
export function toEvent(req: RequestLike, route: RouteDef, params: Record<string, string>): APIGatewayProxyEventV2 {
  const url = new URL(req.url, 'http://localhost');
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    const joined = Array.isArray(value) ? value.join(',') : value;
    if (name === 'cookie') cookies = joined.split(/;\s*/).filter(Boolean);
    else headers[name] = joined;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const isText = textual.test(headers['content-type'] ?? '');
  const now = new Date();
  return {
    version: '2.0',
    routeKey: routeKey(route),
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies,
    headers,
    queryStringParameters: url.search ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: req.method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: req.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: routeKey(route),
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: req.body.length ? (isText ? req.body.toString('utf8') : req.body.toString('base64')) : undefined,
    isBase64Encoded: req.body.length > 0 && !isText,
  };
}

/**
 * What CloudFront does to every request it passes to the API origins, done by the local fronts (this
 * HTTP API and the local WebSocket API) so the functions run the same checks here as in the cloud:
 * whatever a client sent under these names is dropped, then the visitor's address (the socket's
 * remote address, where CloudFront writes the viewer's) and the origin secret are added. Without a
 * secret none is added, and the functions refuse the request, as behind a distribution without it.
 */
export function atTheEdge<V extends string | undefined>(headers: Record<string, V>, viewerAddress: string, originSecret: string | undefined): Record<string, V | string> {
  const edgeNames = new Set([ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER]);
  const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !edgeNames.has(name.toLowerCase())));
  return { ...kept, [VIEWER_ADDRESS_HEADER]: viewerAddress, ...(originSecret ? { [ORIGIN_VERIFY_HEADER]: originSecret } : {}) };
}

/** API Gateway's reading of a Lambda result (structured, or any other value as a JSON body). */
export function normalizeResult(result: APIGatewayProxyResultV2): APIGatewayProxyStructuredResultV2 {
  if (typeof result === 'object' && result !== null && 'statusCode' in result) return result;
  return {
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: typeof result === 'string' ? result : JSON.stringify(result),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_PAYLOAD_LIMIT) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > GATEWAY_PAYLOAD_LIMIT ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const body = result.body
    ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  res.statusCode = result.statusCode ?? 200;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, String(value));
  if (result.cookies?.length) res.setHeader('set-cookie', result.cookies);
  res.setHeader('content-length', body.length);
  res.end(body);
}

function gatewayError(res: ServerResponse, status: number, message: string): void {
  send(res, { statusCode: status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) });
}

export interface HttpApiOptions {
  /**
   * The web app behind `next` is Vite's dev server (npm start): its CSP adds the allowances dev
   * mode needs (an inline React Refresh preamble, injected styles, the HMR socket). A production
   * build gets the strict policy CloudFront sends (shared/security-headers.ts).
   */
  viteDev?: boolean;
  /** Where the browser uploads files and reads presigned images; default: the local S3 (S3_ENDPOINT). */
  uploadOrigins?: string[];
  /**
   * The origin secret this front adds to every /api request as CloudFront does (the local Secrets
   * Manager's `origin`), asked at each request so a changed secret is used at once. Absent: none is
   * added, and the functions refuse every call (functions/common/origin-verify.ts).
   */
  originSecret?: () => string | undefined;
}

/** The security headers of every local response, API and web alike: the cloud's, with local origins. */
export function localSecurityHeaders({ viteDev = true, uploadOrigins }: HttpApiOptions = {}): Record<string, string> {
  const s3 = process.env.S3_ENDPOINT ? [new URL(process.env.S3_ENDPOINT).origin] : [];
  return securityHeadersFor({ uploadOrigins: uploadOrigins ?? s3, development: viteDev });
}

/** Connect-style middleware: serves /api from the manifest, passes everything else on; every answer carries the security headers. */
export function httpApi(options: HttpApiOptions = {}) {
  let headers: Record<string, string> | undefined;
  return async (req: IncomingMessage, res: ServerResponse, next: () => void): Promise<void> => {
    // Computed at the first request: the stack sets S3_ENDPOINT before it serves any.
    headers ??= localSecurityHeaders(options);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith('/api/') && url.pathname !== '/api') return next();
    try {
      const match = matchRoute(req.method ?? 'GET', url.pathname);
      if (!match) return gatewayError(res, 404, 'Not Found');
      const body = await readBody(req);
      if (body === 'too-large') return gatewayError(res, 413, 'Request Entity Too Large');
      const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
      const event = toEvent({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body, sourceIp }, match.route, match.params);
      event.headers = atTheEdge(event.headers, sourceIp, options.originSecret?.());
      const handler = await loadHandler(match.route.name);
      send(res, normalizeResult(await handler(event, lambdaContext(match.route.name))));
    } catch (error) {
      // The handlers' error shape, as their stack answers a request it cannot read.
      if (error instanceof MalformedPathError) {
        return send(res, { statusCode: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: error.name, message: error.message }) });
      }
      // As in AWS: a crashed function is a 500 from the gateway, with nothing of the crash in it.
      console.error(`[local api] ${req.method} ${url.pathname} failed:`, error);
      gatewayError(res, 500, 'Internal Server Error');
    }
  };
}
