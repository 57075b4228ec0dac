import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { inject } from 'vitest';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureTable, localDynamoClient, seedCatalog } from '../../infra/local/dynamo';
import { routes, type RouteDef } from '../../shared/routes';
import type { Schema } from '../../shared/validation';
import { dynamo } from '../common/clients';
import { extremeNumbers, fromSchema, garbageValue, mutatedBody, nastyString, numberFieldsOf, rawGarbageBodies } from '../testing/arbitraries';
import { admittedCallers, credentialsOf, withCredentials, type AdmittedCaller, type CallerCredentials } from '../testing/callers';
import { sampleEvent } from '../testing/events';
import { createTestWorker } from '../testing/workers';
import { handlerModule } from '../testing/handlers';

/**
 * Hostile input: every route of the manifest, called by someone it admits, with bodies,
 * query strings and path parameters generated from its schema (valid, at the limits) and garbage
 * (prototype keys, huge and odd strings, wrong types, deep nesting, invalid JSON, non-UTF-8,
 * oversized bodies). Whatever arrives: never a 5xx, nothing internal in the answer, and a refused
 * request (4xx) writes nothing.
 *
 * The file has a table of its own (other files write to the shared one in parallel), so "nothing
 * written" is a full read of it before and after each call. Seeded: FUZZ_SEED=<n> replays a run;
 * a failure prints the seed and the path of the smallest failing request.
 */
const { table } = vi.hoisted(() => {
  const table = `marketplace-fuzz-${process.pid}`;
  process.env.TABLE_NAME = table;
  // A closed port: the geocoder fails at once instead of waiting on the internet.
  process.env.GEOCODER_URL = 'http://127.0.0.1:9';
  return { table };
});

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

/** Refused requests may still leave these: failed-login counters and the document access log. */
const auditPrefixes = ['THROTTLE#', 'DOCACCESS#'];

/**
 * Internals a response must never show: stack frames, source paths, SDK and runtime error names. A
 * frame is "at fn (/path/file:line:col)" or "at /path/file:line:col", within one token: an address
 * in a notification ("at 742 Evergreen Terrace"), or a time after "at" ("at 14:10:43"), is none.
 */
const internalDetail =
  /\bat (?:[^\s"]+ \()?[^\s"()]*[/\\][^\s"()]*:\d+:\d+|\.[jt]s:\d+|node_modules|"stack"|ConditionalCheckFailed|ResourceNotFound|ValidationException|TransactionCanceled|dynalite|\b(TypeError|ReferenceError|RangeError|SyntaxError)\b|Unexpected token|Cannot read propert|is not a function|undefined is not|DynamoDB/;

/** Query keys the handlers read, beside the sample event's own. */
const queryKeys = ['mode', 'status', 'categoryId', 'documentType', 'workerId', 'lat', 'lng', 'category', 'q', 'days', 'id'];

interface Request {
  body?: string;
  base64?: boolean;
  contentType?: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  caller: AdmittedCaller;
}

let activeWorkerId: string;

beforeAll(async () => {
  const client = localDynamoClient(inject('dynamoEndpoint'));
  await ensureTable(client, table);
  await seedCatalog(client, table);
  client.destroy();
  activeWorkerId = (await createTestWorker()).id;
});

async function snapshot(): Promise<Map<string, string>> {
  const items = new Map<string, string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) {
      const pk = String(item.pk);
      if (auditPrefixes.some((p) => pk.startsWith(p))) continue;
      items.set(`${pk} | ${String(item.sk)}`, JSON.stringify(item));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [key, value] of after) if (before.get(key) !== value) out.push(before.has(key) ? `changed ${key}` : `added ${key}`);
  for (const key of before.keys()) if (!after.has(key)) out.push(`deleted ${key}`);
  return out;
}

async function handlerOf(route: RouteDef) {
  const mod = await handlerModule<{
    handler: ((event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>) & { bodySchema?: Schema };
  }>(route.name);
  return mod.handler;
}

const pathParams = (route: RouteDef) => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

function requests(route: RouteDef, sample: APIGatewayProxyEventV2, schema: Schema | undefined): fc.Arbitrary<Request> {
  const sampleBody = (() => {
    try {
      return sample.body ? (JSON.parse(sample.body) as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  })();
  const body: fc.Arbitrary<string | undefined> = schema
    ? fc.oneof(
        { weight: 5, arbitrary: mutatedBody(schema, sampleBody).map((b) => JSON.stringify(b)) },
        { weight: 2, arbitrary: fromSchema(schema).map((b) => JSON.stringify(b) ?? '') },
        { weight: 1, arbitrary: garbageValue.map((b) => JSON.stringify(b) ?? '') },
        { weight: 1, arbitrary: fc.constantFrom(...rawGarbageBodies) },
      )
    : route.rawBody
      ? fc.oneof(fc.constant(sample.body ?? ''), fc.constantFrom(...rawGarbageBodies), nastyString)
      : fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...rawGarbageBodies) });
  const names = pathParams(route);
  const params = fc.record(
    Object.fromEntries(
      names.map((name) => {
        const kept = sample.pathParameters?.[name] ?? 'x';
        const own = name === 'workerId' ? [activeWorkerId] : [];
        return [name, fc.oneof({ weight: 2, arbitrary: fc.constantFrom(kept, ...own) }, { weight: 3, arbitrary: nastyString })];
      }),
    ),
  );
  const keysOf = [...new Set([...Object.keys(sample.queryStringParameters ?? {}), ...queryKeys])];
  const query = fc.option(
    fc.dictionary(fc.constantFrom(...keysOf, '__proto__', 'constructor'), fc.oneof(nastyString, fc.constantFrom('1', ...Object.values(sample.queryStringParameters ?? {}).filter((v): v is string => typeof v === 'string')))),
    { freq: 2, nil: undefined },
  );
  return fc.record(
    {
      body,
      base64: fc.boolean(),
      contentType: fc.oneof(
        { weight: 8, arbitrary: fc.constant('application/json') },
        { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/json; charset=latin1', 'application/x-www-form-urlencoded', '') },
      ),
      params,
      query,
      caller: fc.constantFrom(...admittedCallers(route.access)),
    },
    { requiredKeys: ['caller', 'params'] },
  );
}

function eventFor(sample: APIGatewayProxyEventV2, request: Request, credentials: CallerCredentials): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = { ...(sample.headers as Record<string, string>) };
  if (request.contentType !== undefined) headers['content-type'] = request.contentType;
  const body = request.body ?? sample.body;
  const event: APIGatewayProxyEventV2 = {
    ...sample,
    headers,
    pathParameters: Object.keys(request.params ?? {}).length ? request.params : sample.pathParameters,
    queryStringParameters: request.query ?? sample.queryStringParameters,
    body: request.base64 && body !== undefined ? Buffer.from(body, 'utf8').toString('base64') : body,
    isBase64Encoded: Boolean(request.base64 && body !== undefined),
  };
  return withCredentials(event, credentials);
}

async function call(route: RouteDef, event: APIGatewayProxyEventV2) {
  const handler = await handlerOf(route);
  const result = await handler(event, {
    functionName: route.name,
    awsRequestId: 'fuzz',
    getRemainingTimeInMillis: () => 10_000,
  } as Context);
  return { status: result.statusCode ?? 200, text: typeof result.body === 'string' ? result.body : '' };
}

/** The one property every call must keep, whatever it was sent. */
async function assertSafe(route: RouteDef, event: APIGatewayProxyEventV2, before: Map<string, string>): Promise<Map<string, string>> {
  const { status, text } = await call(route, event);
  const after = await snapshot();
  const shown = `${route.name} answered ${status}: ${text.slice(0, 300)}`;
  // 503 is a named, deliberate answer (push without VAPID keys): only the bare 500 is a crash.
  expect(status, shown).not.toBe(500);
  expect(text, shown).not.toContain('InternalError');
  expect(text, shown).not.toMatch(internalDetail);
  if (text) expect(() => JSON.parse(text), shown).not.toThrow();
  if (status >= 400) expect(changes(before, after), `${shown}\nwrote though refused`).toEqual([]);
  return after;
}

const manifest = routes as readonly RouteDef[];

describe(`hostile input on every route (seed ${SEED}, ${RUNS} runs each; FUZZ_SEED / FUZZ_RUNS to change)`, () => {
  it.each(manifest.map((r) => [`${r.method} ${r.path} (${r.name})`, r] as const))(
    '%s: answers generated and garbage requests without a 5xx, internals or a refused write',
    async (_, route) => {
      // Prepare
      const sample = sampleEvent(route.name);
      const handler = await handlerOf(route);
      const credentials: Partial<Record<AdmittedCaller, CallerCredentials>> = {};
      for (const kind of admittedCallers(route.access)) credentials[kind] = await credentialsOf(kind, activeWorkerId);
      let state = await snapshot();
      const examples: [Request][] = rawGarbageBodies.map((body) => [{ body, caller: admittedCallers(route.access)[0]!, params: {} }]);
      examples.push([{ body: Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1]).toString('binary'), base64: false, caller: admittedCallers(route.access)[0]!, params: {} }]);

      // Act and Assess: every generated request keeps the property.
      await fc.assert(
        fc.asyncProperty(requests(route, sample, handler.bodySchema), async (request) => {
          state = await assertSafe(route, eventFor(sample, request, credentials[request.caller]!), state);
        }),
        { seed: SEED, numRuns: RUNS, examples, endOnFailure: true },
      );
    },
  );

  it('answers a body that is not UTF-8 (base64 of invalid bytes) on every route with a body without a 5xx', async () => {
    for (const route of manifest.filter((r) => r.body)) {
      // Prepare
      const sample = sampleEvent(route.name);
      const [kind] = admittedCallers(route.access);
      const event = withCredentials(
        { ...sample, body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]).toString('base64'), isBase64Encoded: true },
        await credentialsOf(kind!, activeWorkerId),
      );
      const before = await snapshot();

      // Act and Assess
      await assertSafe(route, event, before);
    }
  });

  it('answers every numeric field of every body set to a huge or tiny number without a 5xx or a write', async () => {
    for (const route of manifest.filter((r) => r.body)) {
      // Prepare
      const sample = sampleEvent(route.name);
      const handler = await handlerOf(route);
      const sampleBody = JSON.parse(sample.body ?? '{}') as Record<string, unknown>;
      const credentials = await credentialsOf(admittedCallers(route.access)[0]!, activeWorkerId);
      let state = await snapshot();

      // Act and Assess
      for (const field of numberFieldsOf(handler.bodySchema!)) {
        for (const value of extremeNumbers) {
          const event = withCredentials({ ...sample, body: JSON.stringify({ ...sampleBody, [field]: value }) }, credentials);
          state = await assertSafe(route, event, state);
        }
      }
    }
  });

  it('refuses a body over the size limit with 413 on every route that takes one', async () => {
    for (const route of manifest.filter((r) => r.body)) {
      // Prepare
      const sample = sampleEvent(route.name);
      const [kind] = admittedCallers(route.access);
      const event = withCredentials({ ...sample, body: `{"a":"${'x'.repeat(70_000)}"}` }, await credentialsOf(kind!, activeWorkerId));

      // Act
      const { status } = await call(route, event);

      // Assess
      expect(status, route.name).toBe(413);
    }
  });
});
