import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { inject } from 'vitest';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/edge';
import type { RouteDef } from '../../shared/routes';
import { assertAnswersItsContract } from './responses';

const eventsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../events');

/**
 * The sample event of a function (events/<name>.json), doubling as the test fixture, as it reaches
 * the function through CloudFront: an HTTP or WebSocket event carries what the edge adds (the origin
 * secret the test setup put in its local Secrets Manager, and the visitor's address, the event's
 * sourceIp), so the handlers run their real origin check on every test call.
 */
export function sampleEvent(name: string): APIGatewayProxyEventV2 {
  return throughTheEdge(JSON.parse(readFileSync(path.join(eventsDir, `${name}.json`), 'utf8')) as APIGatewayProxyEventV2);
}

/** The test run's origin secret: what CloudFront would add (infra/testing/dynalite-global-setup.ts). */
export function testOriginSecret(): string {
  return inject('originSecret');
}

/** An event (with headers: HTTP or WebSocket) with the headers CloudFront adds; timers' events pass as they are. */
export function throughTheEdge<E extends APIGatewayProxyEventV2>(event: E): E {
  if (!event.headers) return event;
  const context = event.requestContext as { http?: { sourceIp?: string }; identity?: { sourceIp?: string } } | undefined;
  const viewer = context?.http?.sourceIp ?? context?.identity?.sourceIp ?? '127.0.0.1';
  return { ...event, headers: { ...event.headers, [ORIGIN_VERIFY_HEADER]: testOriginSecret(), [VIEWER_ADDRESS_HEADER]: viewer } };
}

/**
 * The event as sent by a visitor at `address` through CloudFront: the edge's viewer address (what
 * every per-address limit counts), while API Gateway's sourceIp stays the edge server's.
 */
export function fromAddress<E extends APIGatewayProxyEventV2>(event: E, address: string): E {
  return { ...event, headers: { ...event.headers, [VIEWER_ADDRESS_HEADER]: address } };
}

/** The event as sent to execute-api directly, around CloudFront: without the origin secret. */
export function aroundTheEdge<E extends APIGatewayProxyEventV2>(event: E): E {
  const { [ORIGIN_VERIFY_HEADER]: _secret, ...headers } = event.headers ?? {};
  return { ...event, headers };
}

export function withBody(event: APIGatewayProxyEventV2, body: unknown): APIGatewayProxyEventV2 {
  return { ...event, body: typeof body === 'string' ? body : JSON.stringify(body) };
}

export function withPath(event: APIGatewayProxyEventV2, params: Record<string, string>): APIGatewayProxyEventV2 {
  return { ...event, pathParameters: params };
}

export function withCookies(event: APIGatewayProxyEventV2, cookies: string[]): APIGatewayProxyEventV2 {
  return { ...event, cookies };
}

export function withHeaders(event: APIGatewayProxyEventV2, headers: Record<string, string>): APIGatewayProxyEventV2 {
  return { ...event, headers: { ...event.headers, ...headers } };
}

const context = (): Context =>
  ({
    functionName: 'test',
    awsRequestId: randomUUID(),
    getRemainingTimeInMillis: () => 10_000,
  }) as Context;

type AnyHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

export interface Invocation<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | number | boolean>;
  cookies: string[];
}

/**
 * Calls a handler as Lambda would. A route's handler (the http() stack knows its route) is held to
 * its contract on every call: a 2xx body its response schema refuses fails the test that made it.
 */
export async function invoke<T = any>(handler: AnyHandler, event: APIGatewayProxyEventV2): Promise<Invocation<T>> {
  const result = (await handler(event, context())) as APIGatewayProxyStructuredResultV2;
  // A file (a CSV export) is its text as it is; every other answer is JSON.
  const json = !String(result.headers?.['content-type'] ?? 'application/json').startsWith('text/');
  const invocation: Invocation<T> = {
    status: result.statusCode ?? 200,
    body: result.body ? ((json ? JSON.parse(result.body) : result.body) as T) : (undefined as T),
    headers: result.headers ?? {},
    cookies: result.cookies ?? [],
  };
  const { route } = handler as { route?: Pick<RouteDef, 'name' | 'response'> };
  if (route?.response) assertAnswersItsContract(route, invocation.status, invocation.body);
  return invocation;
}
