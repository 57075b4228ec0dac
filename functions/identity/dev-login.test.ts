import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler } from './dev-login';
import { handler as getCurrentUser } from './get-current-user';
import { sessions } from '../common/auth/sessions';
import { newId } from '../common/ids';
import { invoke, sampleEvent, withBody, withCookies } from '../testing/events';

const sample = sampleEvent('dev-login');
const asCookie = (setCookie: string) => setCookie.split(';')[0]!;

describe('POST /api/auth/dev-login (the local runtime)', () => {
  it('signs in as the owner with a session cookie that GET /api/auth/me knows', async () => {
    // Act
    const res = await invoke(handler, sample);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, user: { id: 'dev-owner', role: 'admin', username: 'Dev Owner' } });
    expect(res.cookies[0]).toMatch(/^owner_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; SameSite=Lax; HttpOnly$/);
    const me = await invoke(getCurrentUser, withCookies(sampleEvent('get-current-user'), [asCookie(res.cookies[0]!)]));
    expect(me.body).toEqual({ ok: true, user: { id: 'dev-owner', role: 'admin', username: 'Dev Owner' } });
  });

  it('signs in as a worker with a bearer token', async () => {
    const workerId = newId();

    const res = await invoke(handler, withBody(sample, { userId: workerId, role: 'worker', username: 'Pat Worker' }));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      user: { id: workerId, role: 'worker', username: 'Pat Worker' },
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(res.cookies).toEqual([]);
    expect(await sessions.find(res.body.token)).toMatchObject({ role: 'worker', subjectId: workerId });
  });

  it('signs in as a customer by setting the anonymous customer cookie', async () => {
    const customerId = newId();

    const res = await invoke(handler, withBody(sample, { userId: customerId, role: 'customer', username: 'Casey' }));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, user: { id: customerId, role: 'customer', username: 'Casey' } });
    expect(res.cookies).toEqual([`customer_id=${customerId}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly`]);
  });

  it('refuses a customer id that is not a customer id', async () => {
    const res = await invoke(handler, withBody(sample, { userId: 'customer-1', role: 'customer', username: 'Casey' }));

    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty('userId');
    expect(res.cookies).toEqual([]);
  });

  it('refuses an unknown role', async () => {
    const res = await invoke(handler, withBody(sample, { userId: 'x', role: 'root', username: 'x' }));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ role: 'role must be customer, worker or admin' });
  });
});

describe('POST /api/auth/dev-login (anywhere but the local runtime)', () => {
  afterEach(() => {
    vi.doUnmock('../common/env');
    vi.resetModules();
  });

  /** The handler as a deployed function builds it: the CDK stack's environment, whatever its stage. */
  async function deployedHandler(stage: string) {
    vi.resetModules();
    vi.doMock('../common/env', async (importOriginal) => {
      const actual = await importOriginal<typeof import('../common/env')>();
      // Every HTTP function is told the origin secret's id (the stack's OriginSecret); here, the test run's.
      const env = actual.parseEnv({
        TABLE_NAME: actual.env.TABLE_NAME,
        DYNAMODB_ENDPOINT: actual.env.DYNAMODB_ENDPOINT,
        STAGE: stage,
        ORIGIN_SECRET_ID: actual.env.ORIGIN_SECRET_ID,
        SECRETS_MANAGER_ENDPOINT: actual.env.SECRETS_MANAGER_ENDPOINT,
      });
      return { ...actual, env, secureCookies: !env.LOCAL_RUNTIME };
    });
    return (await import('./dev-login')).handler;
  }

  it.each(['prod', 'local'])('does not exist on a deployed stack named %s: 404 and no session', async (stage) => {
    // Prepare: a stack named 'local' gets every variable the CDK stack sets, none the local runtime does
    const deployed = await deployedHandler(stage);

    // Act
    const res = await invoke(deployed, sample);

    // Assess
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('NotFoundError');
    expect(res.cookies).toEqual([]);
    expect(JSON.stringify(res.body)).not.toContain('token');
  });
});
