import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMON_PASSWORD_MESSAGE } from '../shared/common-passwords';
import { keys } from '../shared/table';
import { handler, NO_APPROVED_APPLICATION } from './create-worker-account';
import { handler as getSelf } from './get-worker-self';
import { verifyPassword } from './lib/auth/passwords';
import { dynamo, tableName } from './lib/clients';
import { applicationsRepo } from './lib/data/applications';
import { workerAdmin } from './lib/data/worker-admin';
import { workersRepo } from './lib/data/workers';
import { applicantWithAccount, asOwner, pendingApplication } from './lib/testing/applications';
import { handler as approveWorker } from './approve-worker';
import { handler as listDocuments } from './list-documents';
import { handler as rejectWorker } from './reject-worker';
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

describe('POST /api/workers/create-account before the owner decides', () => {
  afterEach(() => vi.restoreAllMocks());

  it('adds the account to the profile an approval made between its read and its write: one profile, one account', async () => {
    // Prepare: the owner approves right after the signup read the application (still pending).
    const { id, body } = await pendingApplication();
    const read = applicationsRepo.findWorkerApplication.bind(applicationsRepo);
    let approvedAs: string | undefined;
    let raced = false;
    vi.spyOn(applicationsRepo, 'findWorkerApplication').mockImplementation(async (applicationId) => {
      const application = await read(applicationId);
      if (!raced) {
        raced = true;
        approvedAs = (await workerAdmin.approve(applicationId, newId())).id;
      }
      return application;
    });

    // Act
    const res = await signup(body.emailAddress);

    // Assess
    expect(approvedAs).toEqual(expect.any(String));
    expect(res).toMatchObject({ status: 201, body: { worker: { id: approvedAs, status: 'active' } } });
    const profiles = (await workerAdmin.listAll()).filter((w) => w.applicationId === id);
    expect(profiles).toEqual([expect.objectContaining({ id: approvedAs, status: 'active', hasAccount: true })]);
    expect(await accountOf(approvedAs!)).toBeDefined();
  });

  it('creates the account of an applicant under review: a profile under review, not verified, signed in to its status only', async () => {
    // Prepare
    const { id, body } = await pendingApplication();

    // Act
    const res = await signup(body.emailAddress);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.worker).toMatchObject({ email: body.emailAddress, fullName: body.fullName, status: 'pending_review' });
    const profile = await workersRepo.findById(res.body.worker.id);
    expect(profile).toMatchObject({ applicationId: id, status: 'pending_review', isVerified: false, hasAccount: true, categories: body.servicesProvided });
    expect(await applicationsRepo.findEmailClaim(body.emailAddress)).toMatchObject({ applicationId: id, workerId: res.body.worker.id });
    expect((await applicationsRepo.findWorkerApplication(id))?.status).toBe('pending');
    expect((await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), res.body.token))).status).toBe(200);
    expect((await invoke(listDocuments, withBearer(sampleEvent('list-documents'), res.body.token))).status).toBe(403);
  });

  it('refuses a second account for the same applicant, and an applicant whose application was rejected', async () => {
    // Prepare
    const applicant = await applicantWithAccount();
    const rejected = await pendingApplication();
    await invoke(rejectWorker, await asOwner('reject-worker', { id: rejected.id }));

    // Act
    const again = await signup(applicant.body.emailAddress, 'another-password-1');
    const afterRejection = await signup(rejected.body.emailAddress);

    // Assess
    expect(again).toMatchObject({ status: 403, body: refusal });
    expect(afterRejection).toMatchObject({ status: 403, body: refusal });
    expect(await applicationsRepo.findEmailClaim(rejected.body.emailAddress)).not.toHaveProperty('workerId');
  });

  it('creates one profile and one account when two signups of one applicant race', async () => {
    const { id, body } = await pendingApplication();

    const results = await Promise.all([signup(body.emailAddress, 'first-password-1'), signup(body.emailAddress, 'second-password-2')]);

    expect(results.map((r) => r.status).sort()).toEqual([201, 403]);
    const winner = results.find((r) => r.status === 201)!.body.worker.id;
    expect((await workerAdmin.listAll()).filter((w) => w.applicationId === id).map((w) => w.id)).toEqual([winner]);
    expect(await accountOf(winner)).toBeDefined();
  });

  it.each([1, 2, 3])(
    'leaves one worker profile and one account when the approval races the signup (round %i)',
    async () => {
      // Prepare
      const { id, body } = await pendingApplication();
      const approval = await asOwner('approve-worker', { id });

      // Act: both at once, whichever lands first.
      const [account, approved] = await Promise.all([signup(body.emailAddress), invoke(approveWorker, approval)]);

      // Assess: both succeed, on the same profile, which is active, verified and has the account.
      expect(account.status).toBe(201);
      expect(approved.status).toBe(200);
      const profiles = (await workerAdmin.listAll()).filter((w) => w.applicationId === id);
      expect(profiles).toHaveLength(1);
      expect(profiles[0]).toMatchObject({ id: approved.body.workerId, status: 'active', isVerified: true, hasAccount: true });
      expect(account.body.worker.id).toBe(approved.body.workerId);
      expect(await accountOf(approved.body.workerId)).toBeDefined();
      expect(await applicationsRepo.findEmailClaim(body.emailAddress)).toMatchObject({ workerId: approved.body.workerId });
      expect((await applicationsRepo.findWorkerApplication(id))?.workerId).toBe(approved.body.workerId);
      const me = await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), account.body.token));
      expect(me.body.status).toBe('active');
    },
  );
});
