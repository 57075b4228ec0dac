import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes, type Access, type RouteDef } from '../../shared/routes';
import { keys } from '../../shared/entities';
import { hashSecret, newSecret } from '../common/auth/tokens';
import { dynamo, tableName } from '../common/clients';
import { newId } from '../common/ids';
import { issuedCustomer } from '../testing/customers';
import { setUpOwnerSessionCookie } from '../testing/owner';
import { invoke, sampleEvent } from '../testing/events';
import { createTestWorker, workerToken } from '../testing/workers';
import { handlerModule } from '../testing/handlers';

/**
 * Every route answers only whom the manifest allows. Walks the whole
 * manifest with every kind of caller; a new route is covered the moment it is listed.
 */
type CallerKind =
  | 'nobody'
  | 'customer'
  | 'made-up customer cookie'
  | 'owner'
  | 'worker'
  | 'pending worker'
  | 'rejected applicant'
  | 'suspended worker'
  | 'terminated worker'
  | 'expired worker token'
  | 'forged worker token'
  | 'expired owner session'
  | 'forged owner session';

const callerKinds: CallerKind[] = [
  'nobody',
  'customer',
  'made-up customer cookie',
  'owner',
  'worker',
  'pending worker',
  'rejected applicant',
  'suspended worker',
  'terminated worker',
  'expired worker token',
  'forged worker token',
  'expired owner session',
  'forged owner session',
];

/** Who each access level lets in; everyone else must get 401 or 403. */
const admits: Record<Access, readonly CallerKind[]> = {
  public: callerKinds,
  anyone: callerKinds,
  'signed-in': ['owner', 'worker', 'pending worker', 'rejected applicant', 'suspended worker', 'terminated worker'],
  customer: ['customer'],
  admin: ['owner'],
  applicant: ['worker', 'pending worker', 'rejected applicant', 'suspended worker', 'terminated worker'],
  // An applicant's account (under review, or not approved) reaches only the applicant routes: status, application, logout.
  // A suspended pro reads their status and strike record and appeals; nothing that works a job.
  worker: ['worker', 'suspended worker', 'terminated worker'],
  'active-worker': ['worker'],
};

let workerIds: Record<'active' | 'other' | 'pending' | 'rejected' | 'suspended' | 'terminated', string>;

async function expiredSession(role: 'admin' | 'worker', subjectId: string): Promise<string> {
  const secret = newSecret();
  await dynamo.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.session(hashSecret(secret)),
        ...keys.sessionsOf(role, subjectId, new Date(0).toISOString()),
        entity: 'session',
        role,
        subjectId,
        username: 'expired',
        createdAt: new Date(0).toISOString(),
        expiresAt: Math.floor(Date.now() / 1000) - 60,
      },
    }),
  );
  return secret;
}

beforeAll(async () => {
  const [active, other, pending, rejected, suspended, terminated] = await Promise.all([
    createTestWorker(),
    createTestWorker(),
    createTestWorker({ status: 'pending_review' }),
    createTestWorker({ status: 'rejected' }),
    createTestWorker({ status: 'suspended', strikes: 2 }),
    createTestWorker({ status: 'terminated', strikes: 2 }),
  ]);
  workerIds = { active: active.id, other: other.id, pending: pending.id, rejected: rejected.id, suspended: suspended.id, terminated: terminated.id };
});

/** Fresh credentials for every call: a route under test (a logout) may end the session it got. */
async function credentialsOf(kind: CallerKind): Promise<{ cookies?: string[]; authorization?: string }> {
  const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
  const ownerCookie = (secret: string) => ({ cookies: [`owner_session=${secret}`] });
  switch (kind) {
    case 'nobody':
      return {};
    case 'customer':
      return { cookies: [(await issuedCustomer()).cookie] };
    case 'made-up customer cookie':
      // Well formed, but never issued by the server: a client choosing whom to be.
      return { cookies: [`customer_id=${newId()}`] };
    case 'owner':
      return { cookies: [await setUpOwnerSessionCookie()] };
    case 'worker':
      return bearer(await workerToken(workerIds.active));
    case 'pending worker':
      return bearer(await workerToken(workerIds.pending));
    case 'rejected applicant':
      return bearer(await workerToken(workerIds.rejected));
    case 'suspended worker':
      return bearer(await workerToken(workerIds.suspended));
    case 'terminated worker':
      return bearer(await workerToken(workerIds.terminated));
    case 'expired worker token':
      return bearer(await expiredSession('worker', workerIds.active));
    case 'forged worker token':
      return bearer(newSecret());
    case 'expired owner session':
      return ownerCookie(await expiredSession('admin', 'owner'));
    case 'forged owner session':
      return ownerCookie(newSecret());
  }
}

async function as(kind: CallerKind, event: APIGatewayProxyEventV2): Promise<APIGatewayProxyEventV2> {
  const { cookies, authorization } = await credentialsOf(kind);
  return {
    ...event,
    cookies: [...(event.cookies ?? []), ...(cookies ?? [])],
    headers: { ...event.headers, ...(authorization ? { authorization } : {}) },
  };
}

/** The sample event speaking of the active worker (its sample worker id exists nowhere). */
function asOwnWorker(event: APIGatewayProxyEventV2): APIGatewayProxyEventV2 {
  const body = event.body ? (JSON.parse(event.body) as Record<string, unknown>) : undefined;
  return {
    ...event,
    ...(event.pathParameters?.workerId ? { pathParameters: { ...event.pathParameters, workerId: workerIds.active } } : {}),
    ...(body && 'workerId' in body ? { body: JSON.stringify({ ...body, workerId: workerIds.active }) } : {}),
  };
}

async function handlerOf(route: RouteDef) {
  const mod = (await handlerModule<{ handler: Parameters<typeof invoke>[0] }>(route.name));
  return mod.handler;
}

/** Routes that refuse someone: all but those open to anyone (identified or not). */
const guarded = (routes as readonly RouteDef[]).filter((r) => r.access !== 'public' && r.access !== 'anyone');

describe('authorisation across the whole manifest', () => {
  describe.each(guarded.map((r) => [`${r.method} ${r.path} (${r.access})`, r] as const))('%s', (_, route) => {
    const refused = callerKinds.filter((k) => !admits[route.access].includes(k));

    it.each(refused)('refuses %s with 401 or 403', async (kind) => {
      // Prepare
      const handler = await handlerOf(route);

      // Act
      const res = await invoke(handler, await as(kind, sampleEvent(route.name)));

      // Assess
      expect([401, 403]).toContain(res.status);
    });

    it.each(admits[route.access])('lets %s past authorisation', async (kind) => {
      const handler = await handlerOf(route);

      const res = await invoke(handler, await as(kind, asOwnWorker(sampleEvent(route.name))));

      expect([401, 403]).not.toContain(res.status);
    });
  });

  it('never lets a worker name another worker in a body or a path', async () => {
    const workerRoutes = guarded.filter((r) => r.access === 'applicant' || r.access === 'worker' || r.access === 'active-worker');
    for (const route of workerRoutes) {
      // Prepare
      const handler = await handlerOf(route);
      const event = await as('worker', sampleEvent(route.name));
      const attempts: APIGatewayProxyEventV2[] = [];
      if (route.body) {
        const body = event.body ? (JSON.parse(event.body) as Record<string, unknown>) : {};
        attempts.push({ ...event, body: JSON.stringify({ ...body, workerId: workerIds.other }) });
      } else if (route.method !== 'GET') {
        // Job calls accept a workerId in the body; a body-less route takes none.
        const headers = { ...event.headers, 'content-type': 'application/json' };
        attempts.push({ ...event, headers, body: JSON.stringify({ workerId: workerIds.other }) });
      }
      if (route.path.includes('{workerId}')) {
        attempts.push({ ...event, pathParameters: { ...event.pathParameters, workerId: workerIds.other } });
      }

      for (const attempt of attempts) {
        // Act
        const res = await invoke(handler, attempt);

        // Assess: refused, either as an unknown field or as someone else's resource.
        expect([400, 403], `${route.name} with another workerId`).toContain(res.status);
      }
    }
  });
});
