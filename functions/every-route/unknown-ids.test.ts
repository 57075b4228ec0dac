import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteDef } from '../../shared/routes';
import { newId } from '../common/ids';
import { admittedCallers, credentialsOf, withCredentials } from '../testing/callers';
import { invoke, sampleEvent } from '../testing/events';
import { createTestWorker } from '../testing/workers';
import { handlerModule } from '../testing/handlers';

/**
 * A malformed id names nothing, exactly as an unknown one does, so the two must get the same answer:
 * were they told apart, the answer would say which ids exist. Walks every route with an id in its
 * path, as each caller it admits, and compares a malformed id's answer with a well-formed unknown one's.
 */
const ID_PARAMS = ['id', 'jobId', 'workerId', 'uploadId'] as const;

const withIdRoutes = (routes as readonly RouteDef[]).filter((r) => !r.localRuntimeOnly && ID_PARAMS.some((p) => r.path.includes(`{${p}}`)));

async function handlerOf(route: RouteDef) {
  const mod = (await handlerModule<{ handler: Parameters<typeof invoke>[0] }>(route.name));
  return mod.handler;
}

/**
 * The route's sample event with every id of its path replaced by `value`, and a body that passes
 * everything the handler checks before the id: the caller's own worker id where it names one, a
 * requested time still ahead.
 */
function withIds(route: RouteDef, value: string): APIGatewayProxyEventV2 {
  const sample = sampleEvent(route.name);
  const replaced = Object.fromEntries(
    Object.entries(sample.pathParameters ?? {}).map(([name, v]) => [name, (ID_PARAMS as readonly string[]).includes(name) ? value : v]),
  );
  const body = sample.body ? (JSON.parse(sample.body) as Record<string, unknown>) : undefined;
  if (body && 'workerId' in body) body.workerId = activeWorkerId;
  if (body && typeof body.requestedTime === 'string') body.requestedTime = new Date(Date.now() + 2 * 24 * 3_600_000).toISOString();
  return { ...sample, pathParameters: replaced, ...(body ? { body: JSON.stringify(body) } : {}) };
}

let activeWorkerId: string;

beforeAll(async () => {
  activeWorkerId = (await createTestWorker({ status: 'active' })).id;
});

describe('a malformed id is answered as an unknown one', () => {
  it('walks at least the worker job actions', () => {
    expect(withIdRoutes.map((r) => r.name)).toEqual(expect.arrayContaining(['accept-job', 'decline-job', 'set-job-state', 'complete-job']));
  });

  describe.each(withIdRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_, route) => {
    it.each(admittedCallers(route.access))('as %s: same status and message', async (kind) => {
      // Prepare
      const handler = await handlerOf(route);
      const credentials = await credentialsOf(kind, activeWorkerId);

      // Act
      const malformed = await invoke(handler, withCredentials(withIds(route, 'not-an-id'), credentials));
      const unknown = await invoke(handler, withCredentials(withIds(route, newId()), credentials));

      // Assess
      expect(malformed.status).toBeGreaterThanOrEqual(400);
      expect({ status: malformed.status, message: malformed.body?.message }).toEqual({ status: unknown.status, message: unknown.body?.message });
    });
  });
});
