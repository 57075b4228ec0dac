import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_MESSAGE } from '../shared/common-passwords';
import { keys } from '../shared/table';
import { handler, NO_APPROVED_APPLICATION } from './create-worker-account';
import { handler as getSelf } from './get-worker-self';
import { verifyPassword } from './lib/auth/passwords';
import { dynamo, tableName } from './lib/clients';
import { workersRepo } from './lib/data/workers';
import { newId } from './lib/ids';
import { invoke, sampleEvent, withBody } from './lib/testing/events';
import { createTestWorker, withBearer } from './lib/testing/workers';
import { handler as login } from './login-worker';

const sample = sampleEvent('create-worker-account');
const PASSWORD = 'correct-horse-42';
const signup = (email: string, password = PASSWORD) =>
  invoke(handler, withBody(sample, { email, password, confirmPassword: password }));

const refusal = { error: 'ForbiddenError', message: NO_APPROVED_APPLICATION };

async function accountOf(workerId: string) {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.workerAccount(workerId) }));
  return out.Item;
}

/** An application's email claim with no worker yet (pending, or refused). */
async function claimWithoutWorker(): Promise<string> {
  const email = `applicant-${randomUUID()}@example.com`;
  await dynamo.send(
    new PutCommand({ TableName: tableName, Item: { ...keys.email(email), email, applicationId: newId() } }),
  );
  return email;
}

describe('POST /api/workers/create-account', () => {
  it('creates the account of an approved applicant and logs them in', async () => {
    // Prepare
    const worker = await createTestWorker();

    // Act
    const res = await signup(worker.email);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.worker).toMatchObject({ id: worker.id, email: worker.email, status: 'active' });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|scrypt/);
    const me = await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), res.body.token));
    expect(me.body.id).toBe(worker.id);
    expect((await workersRepo.findById(worker.id))?.hasAccount).toBe(true);
  });

  it('stores a salted scrypt hash of the password, never the password', async () => {
    const worker = await createTestWorker();

    await signup(worker.email);

    const account = await accountOf(worker.id);
    expect(account).toMatchObject({ entity: 'worker-account', workerId: worker.id });
    expect(account!.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(account)).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, account!.passwordHash)).toBe(true);
  });

  it('lets the new account log in with the same email and password', async () => {
    const worker = await createTestWorker();
    await signup(worker.email.toUpperCase());

    const res = await invoke(login, withBody(sampleEvent('login-worker'), { email: worker.email, password: PASSWORD }));

    expect(res.status).toBe(200);
    expect(res.body.worker.id).toBe(worker.id);
  });

  it('refuses every other case with one and the same 403, revealing nothing about the email', async () => {
    // Prepare
    const hasAccount = await createTestWorker();
    expect((await signup(hasAccount.email)).status).toBe(201);
    const pendingProfile = await createTestWorker({ status: 'pending_review' });
    const cases = {
      neverApplied: `${randomUUID()}@example.com`,
      applicationNotApproved: await claimWithoutWorker(),
      pendingProfile: pendingProfile.email,
      alreadyHasAccount: hasAccount.email,
    };

    for (const [name, email] of Object.entries(cases)) {
      // Act
      const res = await signup(email, 'another-password-1');

      // Assess
      expect(res.status, name).toBe(403);
      expect(res.body, name).toEqual(refusal);
    }
    expect(await accountOf(pendingProfile.id)).toBeUndefined();
    expect(await verifyPassword(PASSWORD, (await accountOf(hasAccount.id))!.passwordHash)).toBe(true);
  });

  it('refuses one of the most common passwords with a message saying what to do, and creates no account', async () => {
    // Prepare
    const worker = await createTestWorker();

    // Act
    const res = await signup(worker.email, 'Sunshine');

    // Assess
    expect(res).toMatchObject({ status: 400, body: { error: 'ValidationError', fields: { password: COMMON_PASSWORD_MESSAGE } } });
    expect(await accountOf(worker.id)).toBeUndefined();
  });

  it('creates exactly one account when two signups for one email race', async () => {
    const worker = await createTestWorker();

    const results = await Promise.all([signup(worker.email, 'first-password-1'), signup(worker.email, 'second-password-2')]);

    expect(results.map((r) => r.status).sort()).toEqual([201, 403]);
    const winner = results.find((r) => r.status === 201)!;
    const account = await accountOf(worker.id);
    const verified = await Promise.all(
      ['first-password-1', 'second-password-2'].map((password) => verifyPassword(password, account!.passwordHash)),
    );
    expect(verified.filter(Boolean)).toHaveLength(1);
    expect((await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), winner.body.token))).status).toBe(200);
  });

  it.each([
    [{ email: 'nope', password: PASSWORD, confirmPassword: PASSWORD }, { email: 'Valid email required' }],
    [{ email: 'a@example.com', password: 'short', confirmPassword: 'short' }, { password: 'Password must be at least 8 characters' }],
    [{ email: 'a@example.com', password: PASSWORD, confirmPassword: `${PASSWORD}x` }, { confirmPassword: "Passwords don't match" }],
    [{ email: 'a@example.com', password: PASSWORD, confirmPassword: PASSWORD, workerId: 'x' }, { _: 'Unknown field: workerId' }],
  ])('refuses %j with 400 and the field message', async (body, fields) => {
    const res = await invoke(handler, withBody(sample, body));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(fields);
  });
});
