import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

const eventsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../events');

/** The sample event of a function (events/<name>.json), doubling as the test fixture. */
export function sampleEvent(name: string): APIGatewayProxyEventV2 {
  return JSON.parse(readFileSync(path.join(eventsDir, `${name}.json`), 'utf8')) as APIGatewayProxyEventV2;
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

export async function invoke<T = any>(handler: AnyHandler, event: APIGatewayProxyEventV2): Promise<Invocation<T>> {
  const result = (await handler(event, context())) as APIGatewayProxyStructuredResultV2;
  return {
    status: result.statusCode ?? 200,
    body: result.body ? (JSON.parse(result.body) as T) : (undefined as T),
    headers: result.headers ?? {},
    cookies: result.cookies ?? [],
  };
}
