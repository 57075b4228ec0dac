import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../../shared/entities';
import { handler as getSelf } from '../workers/get-worker-self';
import { hashPassword } from '../common/auth/passwords';
import { loginThrottle, throttleClock } from '../common/auth/throttle';
import { hashSecret } from '../common/auth/tokens';
import { dynamo, tableName } from '../common/clients';
import type { WorkerAccountItem, WorkerItem } from '../workers/data/workers';
import { fromAddress, invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { strangersFail } from '../testing/logins';
import { createTestWorker, withBearer } from '../testing/workers';
import { applicantWithAccount, asOwner, pendingApplication } from '../testing/applications';
import { handler as rejectWorker } from '../applications/reject-worker';
import { handler as listDocuments } from '../documents/list-documents';
import { handler } from './login-worker';

const sample = sampleEvent('login-worker');
const PASSWORD = 'correct-horse-42';

/** A worker with a login (written directly: createAccount refuses a profile under review). */
async function workerWithAccount(overrides: Partial<WorkerItem> = {}) {
  const worker = await createTestWorker({ ...overrides, hasAccount: true });
  const account: WorkerAccountItem = {
    ...keys.workerAccount(worker.id),
    entity: 'worker-account',
    workerId: worker.id,
    passwordHash: await hashPassword(PASSWORD),
    createdAt: new Date().toISOString(),
  };
  await dynamo.send(new PutCommand({ TableName: tableName, Item: account }));
  return worker;
}

const randomIp = () => `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

/** Each test its own address, so throttle counts never mix across tests. */
function login(body: unknown, address = randomIp(), cookies: string[] = []) {
  return invoke(handler, fromAddress(withCookies(withBody(sample, body), cookies), address));
}

/** The "name=value" a browser sends back for a Set-Cookie header. */
const sentBack = (setCookie: string) => setCookie.split(';')[0]!;

/** The device cookie a successful login left in this browser, as the browser sends it back. */
async function deviceCookieOf(email: string): Promise<string> {
  const res = await login({ email, password: PASSWORD });
  expect(res.status).toBe(200);
  const set = res.cookies.find((c) => c.startsWith('worker_device='));
  expect(set).toBeDefined();
  return sentBack(set!);
}

describe('POST /api/workers/login', () => {
  afterEach(() => vi.restoreAllMocks());

  it('logs an approved worker in with a fresh bearer token and their own view', async () => {
    // Prepare
    const worker = await workerWithAccount();

    // Act
    const res = await login({ email: worker.email, password: PASSWORD });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.worker).toMatchObject({ id: worker.id, email: worker.email, status: 'active', strikes: 0 });
    expect(Object.keys(res.body).sort()).toEqual(['token', 'worker']);
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|scrypt/);
    const me = await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), res.body.token));
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(worker.id);
  });

  it('stores only the hash of the token, never the token itself', async () => {
    const worker = await workerWithAccount();

    const { body } = await login({ email: worker.email, password: PASSWORD });

    const byHash = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.session(hashSecret(body.token)) }));
    expect(byHash.Item).toMatchObject({ role: 'worker', subjectId: worker.id });
    expect(Object.values(byHash.Item!)).not.toContainEqual(expect.stringContaining(body.token));
    const byToken = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.session(body.token) }));
    expect(byToken.Item).toBeUndefined();
  });

  it('starts a new session at every login, each usable', async () => {
    const worker = await workerWithAccount();

    const first = await login({ email: worker.email, password: PASSWORD });
    const second = await login({ email: worker.email, password: PASSWORD });

    expect(first.body.token).not.toBe(second.body.token);
    for (const token of [first.body.token, second.body.token]) {
      expect((await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), token))).status).toBe(200);
    }
  });

  it('accepts the email in any case', async () => {
    const worker = await workerWithAccount();

    const res = await login({ email: `  ${worker.email.toUpperCase()} `, password: PASSWORD });

    expect(res.status).toBe(200);
    expect(res.body.worker.id).toBe(worker.id);
  });

  it.each([
    ['pending_review', 0],
    ['terminated', 2],
  ] as const)('lets a %s worker log in: the status tells the app which screen to show', async (status, strikes) => {
    const worker = await workerWithAccount({ status, strikes });

    const res = await login({ email: worker.email, password: PASSWORD });

    expect(res.status).toBe(200);
    expect(res.body.worker).toMatchObject({ status, strikes });
  });

  it('refuses a wrong password with 401', async () => {
    const worker = await workerWithAccount();

    const res = await login({ email: worker.email, password: 'not-the-password' });

    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'UnauthorizedError', message: 'Invalid email or password' });
  });

  it('refuses an unknown email, and an approved worker without an account, with the same 401', async () => {
    const noAccount = await createTestWorker();

    const unknown = await login({ email: `${randomUUID()}@example.com`, password: PASSWORD });
    const withoutAccount = await login({ email: noAccount.email, password: PASSWORD });

    expect(unknown.status).toBe(401);
    expect(withoutAccount.status).toBe(401);
    expect(withoutAccount.body).toEqual(unknown.body);
  });

  it('slows guessing down: after 5 failures even the right password waits (429)', async () => {
    // Prepare
    const worker = await workerWithAccount();
    const ip = '192.0.2.77';
    for (let i = 0; i < 5; i++) {
      expect((await login({ email: worker.email, password: `guess-${i}` }, ip)).status).toBe(401);
    }

    // Act
    const locked = await login({ email: worker.email, password: PASSWORD }, ip);
    const elsewhere = await login({ email: worker.email, password: PASSWORD }, '192.0.2.78');

    // Assess
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(/Too many failed attempts/);
    expect(locked.headers['retry-after']).toBeDefined();
    expect(elsewhere.status).toBe(200);
  });

  it('answers 429 to an address after 20 failures over any emails, known or not, until the 15 minutes are over', async () => {
    // Prepare: 19 failures on other emails through the throttle, the 20th a real wrong password
    const start = Date.UTC(2026, 10, 22, 16, 0, 0);
    const clock = vi.spyOn(throttleClock, 'now').mockReturnValue(start);
    const worker = await workerWithAccount();
    const ip = '192.0.2.120';
    for (let i = 0; i < 19; i++) await loginThrottle.begin('worker-login', { account: `someone-${randomUUID()}@example.com`, address: ip });
    expect((await login({ email: worker.email, password: 'guess' }, ip)).status).toBe(401);

    // Act
    const known = await login({ email: worker.email, password: PASSWORD }, ip);
    const unknown = await login({ email: `nobody-${randomUUID()}@example.com`, password: PASSWORD }, ip);
    clock.mockReturnValue(start + 15 * 60_000);
    const afterWindow = await login({ email: worker.email, password: PASSWORD }, ip);

    // Assess: the same refusal for an existing and an unknown email
    expect(known.status).toBe(429);
    expect(known.headers['retry-after']).toBe('900');
    expect(unknown.body).toEqual(known.body);
    expect(unknown.headers['retry-after']).toBe(known.headers['retry-after']);
    expect(afterWindow.status).toBe(200);
  });

  it('forgets earlier failures after a successful login', async () => {
    const worker = await workerWithAccount();
    const ip = '192.0.2.90';
    for (let i = 0; i < 4; i++) await login({ email: worker.email, password: `guess-${i}` }, ip);
    expect((await login({ email: worker.email, password: PASSWORD }, ip)).status).toBe(200);

    for (let i = 0; i < 4; i++) await login({ email: worker.email, password: `guess-${i}` }, ip);
    const res = await login({ email: worker.email, password: PASSWORD }, ip);

    expect(res.status).toBe(200);
  });

  it('leaves a long-lived HttpOnly device cookie, sent to the login route alone and stored only as a hash', async () => {
    // Prepare
    const worker = await workerWithAccount();

    // Act
    const res = await login({ email: worker.email, password: PASSWORD });

    // Assess
    expect(res.cookies).toHaveLength(1);
    expect(res.cookies[0]).toMatch(/^worker_device=[A-Za-z0-9_-]{43}; Path=\/api\/workers\/login; Max-Age=15552000; SameSite=Lax; HttpOnly$/);
    const secret = sentBack(res.cookies[0]!).split('=')[1]!;
    const byHash = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.deviceCookie(hashSecret(secret)) }));
    expect(byHash.Item).toMatchObject({ role: 'worker', subjectId: worker.id, account: worker.email.toLowerCase() });
    expect(byHash.Item!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 179 * 24 * 3600);
    expect(JSON.stringify(byHash.Item)).not.toContain(secret);
  });

  it('lets a worker log in with their device cookie after strangers failed 60 times from 10 addresses; without it, 429', async () => {
    // Prepare: the worker's own browser logged in before; then the attack fills every counter of
    // the email, its failures recorded through the throttle as wrong passwords leave them (60 real
    // ones would cost 60 scrypt hashes)
    const worker = await workerWithAccount();
    const device = await deviceCookieOf(worker.email);
    await strangersFail('worker-login', worker.email);

    // Act
    const withDevice = await login({ email: worker.email, password: PASSWORD }, randomIp(), [device]);
    const withoutDevice = await login({ email: worker.email, password: PASSWORD }, randomIp());

    // Assess
    expect(withDevice.status).toBe(200);
    expect(withDevice.body.worker.id).toBe(worker.id);
    expect(withoutDevice.status).toBe(429);
    expect(withoutDevice.body.message).toMatch(/^Too many failed attempts/);
  });

  it('counts wrong passwords with a device cookie against that cookie alone: past 5 only it is refused', async () => {
    // Prepare: two browsers of the worker, each with its own device cookie
    const worker = await workerWithAccount();
    const [guessed, other] = [await deviceCookieOf(worker.email), await deviceCookieOf(worker.email)];
    const ip = randomIp();
    for (let i = 0; i < 5; i++) expect((await login({ email: worker.email, password: `guess-${i}` }, ip, [guessed])).status).toBe(401);

    // Act
    const locked = await login({ email: worker.email, password: PASSWORD }, ip, [guessed]);
    const otherDevice = await login({ email: worker.email, password: PASSWORD }, ip, [other]);
    const noDevice = await login({ email: worker.email, password: PASSWORD }, ip);

    // Assess: the five failures touched neither the address nor the email
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    expect(locked.body.message).toMatch(/^Too many failed attempts/);
    expect(otherDevice.status).toBe(200);
    expect(noDevice.status).toBe(200);
  });

  it('treats a device cookie for another email as none: its failures count per email and address', async () => {
    // Prepare
    const [mine, target] = [await workerWithAccount(), await workerWithAccount()];
    const device = await deviceCookieOf(mine.email);
    const ip = randomIp();
    for (let i = 0; i < 5; i++) expect((await login({ email: target.email, password: `guess-${i}` }, ip, [device])).status).toBe(401);

    // Act
    const res = await login({ email: target.email, password: PASSWORD }, ip, [device]);

    // Assess
    expect(res.status).toBe(429);
  });

  it('replaces the device cookie at each login: the one presented stops counting as one', async () => {
    // Prepare
    const worker = await workerWithAccount();
    const first = await deviceCookieOf(worker.email);
    const again = await login({ email: worker.email, password: PASSWORD }, randomIp(), [first]);
    const ip = randomIp();

    // Act: the old cookie's failures fall on the email and address again
    for (let i = 0; i < 5; i++) await login({ email: worker.email, password: `guess-${i}` }, ip, [first]);
    const res = await login({ email: worker.email, password: PASSWORD }, ip, [first]);

    // Assess
    expect(again.status).toBe(200);
    expect(sentBack(again.cookies[0]!)).not.toBe(first);
    expect(res.status).toBe(429);
  });

  it.each([
    [{ email: 'not-an-email', password: 'x' }, { email: 'Valid email required' }],
    [{ email: 'a@example.com', password: '' }, { password: 'Password is required' }],
    [{ email: 'a@example.com', password: 'x', workerId: 'someone' }, { _: 'Unknown field: workerId' }],
  ])('refuses %j with 400 and the field message', async (body, fields) => {
    const res = await login(body);

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(fields);
  });

  describe('applicants', () => {
    it('lets an applicant with an account in while under review: the status opens "Account Under Review", every worker action stays refused', async () => {
      // Prepare
      const applicant = await applicantWithAccount(PASSWORD);

      // Act
      const res = await login({ email: applicant.body.emailAddress, password: PASSWORD });

      // Assess
      expect(res.status).toBe(200);
      expect(res.body.worker).toMatchObject({ id: applicant.workerId, status: 'pending_review' });
      expect((await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), res.body.token))).status).toBe(200);
      const documents = await invoke(listDocuments, withBearer(sampleEvent('list-documents'), res.body.token));
      expect(documents).toMatchObject({ status: 403, body: { message: 'Your application is still under review.' } });
    });

    it('lets a rejected applicant with an account in, to read the decision', async () => {
      const applicant = await applicantWithAccount(PASSWORD);
      await invoke(rejectWorker, await asOwner('reject-worker', { id: applicant.id }));

      const res = await login({ email: applicant.body.emailAddress, password: PASSWORD });

      expect(res.status).toBe(200);
      expect(res.body.worker.status).toBe('rejected');
    });

    it("answers an applicant's wrong password with the usual 401", async () => {
      const applicant = await applicantWithAccount(PASSWORD);

      const res = await login({ email: applicant.body.emailAddress, password: 'not-the-password' });

      expect(res).toMatchObject({ status: 401, body: { error: 'UnauthorizedError', message: 'Invalid email or password' } });
    });

    it('answers an applicant without an account as an unknown email: the answer never tells which emails applied', async () => {
      const { body } = await pendingApplication();

      const withoutAccount = await login({ email: body.emailAddress, password: PASSWORD });
      const unknown = await login({ email: `${randomUUID()}@example.com`, password: PASSWORD });

      expect(withoutAccount.status).toBe(401);
      expect(withoutAccount.body).toEqual(unknown.body);
    });
  });
});
