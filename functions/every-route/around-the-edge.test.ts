import { randomBytes } from 'node:crypto';
import { CreateSecretCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { ensureTable, localDynamoClient, seedCatalog } from '../../infra/local/dynamo';
import { ORIGIN_VERIFY_HEADER } from '../../shared/edge';
import { routes, type RouteDef } from '../../shared/routes';
import { handler as connectSocket } from '../realtime/connect-socket';
import { handler as getConfig } from '../catalog/get-config';
import { dynamo } from '../common/clients';
import { FRESH_READ_INTERVAL_MS, NOT_THROUGH_SITE_MESSAGE, originClock } from '../common/origin-verify';
import { forgetSecrets } from '../common/secrets';
import { admittedCallers, credentialsOf, withCredentials } from '../testing/callers';
import { aroundTheEdge, invoke, sampleEvent } from '../testing/events';
import { createTestWorker } from '../testing/workers';
import { handlerModule } from '../testing/handlers';

/**
 * Calls made to execute-api directly, around CloudFront (its WAF, its viewer address, the host the
 * visitor asked for): every route and the WebSocket handshake refuse them with 403 before anything
 * else, and a refused call writes nothing. The file has a table and an origin secret of its own, so
 * it can change the secret (as the runbook does) without touching the other files' calls.
 */
const { table, secretId } = vi.hoisted(() => {
  const table = `marketplace-edge-${process.pid}`;
  const secretId = `marketplace/edge-test-${process.pid}-${Date.now()}/origin`;
  process.env.TABLE_NAME = table;
  process.env.ORIGIN_SECRET_ID = secretId;
  return { table, secretId };
});

const secrets = new SecretsManagerClient({
  region: 'us-east-1',
  endpoint: process.env.SECRETS_MANAGER_ENDPOINT,
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
const newValue = () => randomBytes(32).toString('base64url');
const putOrigin = (value: Record<string, string>) => secrets.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: JSON.stringify(value) }));

let current = newValue();
let activeWorkerId: string;

beforeAll(async () => {
  const client = localDynamoClient(inject('dynamoEndpoint'));
  await ensureTable(client, table);
  await seedCatalog(client, table);
  client.destroy();
  await secrets.send(new CreateSecretCommand({ Name: secretId, SecretString: JSON.stringify({ value: current }) }));
  activeWorkerId = (await createTestWorker()).id;
});

afterEach(() => {
  originClock.now = () => Date.now();
});

/** Every item of the file's table, to prove a refused call wrote nothing. */
async function snapshot(): Promise<string[]> {
  const items: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) items.push(JSON.stringify(item));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.sort();
}

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
const handlerOf = async (route: RouteDef) => ((await handlerModule<{ handler: Handler }>(route.name))).handler;
const withOrigin = <E extends APIGatewayProxyEventV2>(event: E, value: string): E => ({ ...aroundTheEdge(event), headers: { ...aroundTheEdge(event).headers, [ORIGIN_VERIFY_HEADER]: value } });

describe('a call that did not come through CloudFront', () => {
  it.each(routes.map((r) => [`${r.method} ${r.path} (${r.name})`, r] as const))(
    '%s: without the origin secret, or with a wrong one, is refused 403 and writes nothing',
    async (_, route) => {
      // Prepare: the route's sample as someone it admits would send it
      const handler = await handlerOf(route);
      const sample = withCredentials(sampleEvent(route.name), await credentialsOf(admittedCallers(route.access)[0]!, activeWorkerId));
      const before = await snapshot();

      // Act
      const answers = [await invoke(handler, aroundTheEdge(sample)), await invoke(handler, withOrigin(sample, newValue())), await invoke(handler, withOrigin(sample, ''))];

      // Assess
      for (const res of answers) {
        expect(res.status, route.name).toBe(403);
        expect(res.body, route.name).toEqual({ error: 'ForbiddenError', message: NOT_THROUGH_SITE_MESSAGE });
        expect(res.cookies, route.name).toEqual([]);
      }
      expect(await snapshot(), route.name).toEqual(before);
    },
  );

  it('is a WebSocket handshake refused 403, with no connection stored', async () => {
    // Prepare
    const sample = sampleEvent('connect-socket');
    const before = await snapshot();

    // Act
    const answers = [await connectSocket(aroundTheEdge(sample) as never), await connectSocket(withOrigin(sample, newValue()) as never)];

    // Assess
    for (const res of answers) expect(res).toEqual({ statusCode: 403, body: JSON.stringify({ message: NOT_THROUGH_SITE_MESSAGE }) });
    expect(await snapshot()).toEqual(before);
  });
});

describe('a call that came through CloudFront', () => {
  it('goes on to the route', async () => {
    const res = await invoke(getConfig, withOrigin(sampleEvent('get-config'), current));

    expect(res.status).toBe(200);
  });

  it('goes on to the WebSocket handshake (here refused for want of an identity, not for its origin)', async () => {
    const sample = sampleEvent('connect-socket');
    const res = await connectSocket(withOrigin({ ...sample, headers: { ...sample.headers, Cookie: '' } }, current) as never);

    expect(res).toMatchObject({ statusCode: 401 });
  });
});

describe('changing the origin secret (README runbook)', () => {
  it('accepts the new value and the previous one while both are in the secret, then only the new one', async () => {
    // Prepare: the operator puts the new value and keeps the old one as `previous`
    const old = current;
    current = newValue();
    await putOrigin({ value: current, previous: old });
    originClock.now = () => Date.now() + FRESH_READ_INTERVAL_MS;

    // Act: CloudFront still sends the old value at some edges, already the new one at others
    const withNew = await invoke(getConfig, withOrigin(sampleEvent('get-config'), current));
    const withOld = await invoke(getConfig, withOrigin(sampleEvent('get-config'), old));
    // ...and once the distribution is deployed everywhere, the operator drops `previous`
    await putOrigin({ value: current });
    forgetSecrets();
    const oldAfterwards = await invoke(getConfig, withOrigin(sampleEvent('get-config'), old));

    // Assess
    expect(withNew.status).toBe(200);
    expect(withOld.status).toBe(200);
    expect(oldAfterwards.status).toBe(403);
  });

  it('reads a changed secret again on the first call that does not match, but not more than once in 30 s', async () => {
    // Prepare: a fresh read just happened (a wrong value), then the secret changes
    const now = Date.now() + 10 * FRESH_READ_INTERVAL_MS;
    originClock.now = () => now;
    expect((await invoke(getConfig, withOrigin(sampleEvent('get-config'), newValue()))).status).toBe(403);
    current = newValue();
    await putOrigin({ value: current });

    // Act
    const tooSoon = await invoke(getConfig, withOrigin(sampleEvent('get-config'), current));
    originClock.now = () => now + FRESH_READ_INTERVAL_MS;
    const later = await invoke(getConfig, withOrigin(sampleEvent('get-config'), current));

    // Assess
    expect(tooSoon.status).toBe(403);
    expect(later.status).toBe(200);
  });
});
