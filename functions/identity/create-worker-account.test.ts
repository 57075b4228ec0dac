import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMON_PASSWORD_MESSAGE } from '../../shared/common-passwords';
import { keys } from '../../shared/entities';
import { handler as approveWorker } from '../applications/approve-worker';
import { handler } from './create-worker-account';
import { handler as getSelf } from '../workers/get-worker-self';
import { handler as listDocuments } from '../documents/list-documents';
import { handler as login } from './login-worker';
import { handler as rejectWorker } from '../applications/reject-worker';
import { hashPassword, verifyPassword } from '../common/auth/passwords';
import { hashSecret } from '../common/auth/tokens';
import { dynamo, tableName } from '../common/clients';
import { ACCOUNT_LINK_REFUSED, NO_APPLICATION } from './data/worker-account-links';
import { applicationsRepo } from '../applications/data/applications';
import { workerAdmin } from '../workers/data/worker-admin';
import { workersRepo, type WorkerAccountItem, type WorkerItem } from '../workers/data/workers';
import { newId } from '../common/ids';
import { accountLinkOf, approvalMailToken, issueAccountLink, receivedMailToken } from '../testing/account-links';
import { asOwner, pendingApplication } from '../testing/applications';
import { fromAddress, invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('create-worker-account');
const PASSWORD = 'correct-horse-42';
const OLD_PASSWORD = 'someone-elses-pass-1';

const randomIp = () => `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

const signup = (token: string, password = PASSWORD, address = randomIp()) =>
  invoke(handler, fromAddress(withBody(sample, { token, password, confirmPassword: password }), address));

const signIn = (email: string, password: string, cookies: string[] = []) =>
  invoke(login, fromAddress(withCookies(withBody(sampleEvent('login-worker'), { email, password }), cookies), randomIp()));

async function accountOf(workerId: string) {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.workerAccount(workerId), ConsistentRead: true }));
  return out.Item;
}

/** An approved pro whose account someone already made (written directly, as the old signup by email left it). */
async function proWithAccount(): Promise<WorkerItem> {
  const worker = await createTestWorker({ hasAccount: true });
  const account: WorkerAccountItem = {
    ...keys.workerAccount(worker.id),
    entity: 'worker-account',
    workerId: worker.id,
    passwordHash: await hashPassword(OLD_PASSWORD),
    createdAt: new Date().toISOString(),
  };
  await dynamo.send(new PutCommand({ TableName: tableName, Item: account }));
  return worker;
}

describe('POST /api/workers/create-account', () => {
  it('creates the account of an approved applicant from a mailed link and signs them in', async () => {
    // Prepare
    const worker = await createTestWorker();
    const token = await issueAccountLink(worker.email);

    // Act
    const res = await signup(token);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.worker).toMatchObject({ id: worker.id, email: worker.email, status: 'active' });
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|scrypt/);
    const me = await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), res.body.token));
    expect(me.body.id).toBe(worker.id);
    expect((await workersRepo.findById(worker.id))?.hasAccount).toBe(true);
    expect((await signIn(worker.email, PASSWORD)).status).toBe(200);
  });

  it('stores a salted scrypt hash of the password, never the password', async () => {
    const worker = await createTestWorker();

    await signup(await issueAccountLink(worker.email));

    const account = await accountOf(worker.id);
    expect(account).toMatchObject({ entity: 'worker-account', workerId: worker.id });
    expect(account!.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(account)).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, account!.passwordHash)).toBe(true);
  });

  it('refuses a stranger who knows only the email: the old body with email and password is a 400 and writes nothing', async () => {
    // Prepare
    const worker = await createTestWorker();

    // Act
    const res = await invoke(handler, fromAddress(withBody(sample, { email: worker.email, password: PASSWORD, confirmPassword: PASSWORD }), randomIp()));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields).toMatchObject({ token: 'This link is incomplete. Open it again from the mail, or send a new link.' });
    expect(await accountOf(worker.id)).toBeUndefined();
    expect((await workersRepo.findById(worker.id))?.hasAccount).toBe(false);
  });

  it('refuses a made-up link with 410 and a sentence, and writes nothing', async () => {
    const worker = await createTestWorker();

    const res = await signup('Tm90QVJlYWxMaW5rQnV0U2hhcGVkTGlrZU9uZTAxMjM');

    expect(res).toMatchObject({ status: 410, body: { error: 'GoneError', message: ACCOUNT_LINK_REFUSED.unknown } });
    expect(await accountOf(worker.id)).toBeUndefined();
  });

  it('sets a password once per link: used again, it answers 410 "used" and keeps the first password', async () => {
    // Prepare
    const worker = await createTestWorker();
    const token = await issueAccountLink(worker.email);
    expect((await signup(token)).status).toBe(201);

    // Act
    const again = await signup(token, 'another-password-9');

    // Assess
    expect(again).toMatchObject({ status: 410, body: { message: ACCOUNT_LINK_REFUSED.used } });
    expect(await verifyPassword(PASSWORD, (await accountOf(worker.id))!.passwordHash)).toBe(true);
  });

  it('refuses an expired link with 410 "expired"', async () => {
    const worker = await createTestWorker();
    const token = await issueAccountLink(worker.email, -1);

    const res = await signup(token);

    expect(res).toMatchObject({ status: 410, body: { message: ACCOUNT_LINK_REFUSED.expired } });
    expect(await accountOf(worker.id)).toBeUndefined();
  });

  it('creates exactly one account when two submits of one link race: the other hears the link was used', async () => {
    // Prepare
    const worker = await createTestWorker();
    const token = await issueAccountLink(worker.email);

    // Act
    const results = await Promise.all([signup(token, 'first-password-1'), signup(token, 'second-password-2')]);

    // Assess
    expect(results.map((r) => r.status).sort()).toEqual([201, 410]);
    expect(results.find((r) => r.status === 410)!.body.message).toBe(ACCOUNT_LINK_REFUSED.used);
    const account = await accountOf(worker.id);
    const verified = await Promise.all(['first-password-1', 'second-password-2'].map((p) => verifyPassword(p, account!.passwordHash)));
    expect(verified.filter(Boolean)).toHaveLength(1);
  });

  it('ends the other links mailed to the address once one of them made the account', async () => {
    const worker = await createTestWorker();
    const [first, second] = [await issueAccountLink(worker.email), await issueAccountLink(worker.email)];

    expect((await signup(first)).status).toBe(201);
    const late = await signup(second, 'another-password-9');

    expect(late).toMatchObject({ status: 410, body: { message: ACCOUNT_LINK_REFUSED.unknown } });
    expect(await verifyPassword(PASSWORD, (await accountOf(worker.id))!.passwordHash)).toBe(true);
  });

  it('counts links presented like logins: past 5 wrong links from one address, 429 with Retry-After', async () => {
    // Prepare
    const address = randomIp();
    const wrong = `wrong-${randomUUID()}`;
    for (let i = 0; i < 5; i++) expect((await signup(wrong, PASSWORD, address)).status).toBe(410);

    // Act
    const refused = await signup(wrong, PASSWORD, address);

    // Assess
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/^Too many failed attempts\. Try again in \d+ minutes?\.$/);
  });

  it('refuses one of the most common passwords with a message saying what to do, and creates no account', async () => {
    const worker = await createTestWorker();

    const res = await signup(await issueAccountLink(worker.email), 'Sunshine');

    expect(res).toMatchObject({ status: 400, body: { error: 'ValidationError', fields: { password: COMMON_PASSWORD_MESSAGE } } });
    expect(await accountOf(worker.id)).toBeUndefined();
  });

  it.each([
    [{ token: 'x', password: 'short', confirmPassword: 'short' }, { password: 'Password must be at least 8 characters' }],
    [{ token: 'x', password: PASSWORD, confirmPassword: `${PASSWORD}x` }, { confirmPassword: "Passwords don't match" }],
    [{ token: 'x', password: PASSWORD, confirmPassword: PASSWORD, email: 'a@example.com' }, { _: 'Unknown field: email' }],
  ])('refuses %j with 400 and the field message', async (body, fields) => {
    const res = await invoke(handler, fromAddress(withBody(sample, body), randomIp()));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual(fields);
  });
});

describe('POST /api/workers/create-account for an address whose account someone else made', () => {
  it('replaces the password, ends every session and device cookie of the account, and signs the mailbox owner in', async () => {
    // Prepare: whoever made the account is signed in on a phone and in a browser with a device cookie.
    const worker = await proWithAccount();
    const phone = await workerToken(worker.id);
    const browser = await signIn(worker.email, OLD_PASSWORD);
    const device = browser.cookies.find((c) => c.startsWith('worker_device='))!.split(';')[0]!;
    const token = await issueAccountLink(worker.email);

    // Act
    const res = await signup(token);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.worker.id).toBe(worker.id);
    for (const old of [phone, browser.body.token as string]) {
      expect((await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), old))).status).toBe(401);
    }
    const deviceRow = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.deviceCookie(hashSecret(device.split('=')[1]!)), ConsistentRead: true }));
    expect(deviceRow.Item).toBeUndefined();
    expect((await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), res.body.token))).status).toBe(200);
    expect((await signIn(worker.email, PASSWORD)).status).toBe(200);
    expect((await signIn(worker.email, OLD_PASSWORD)).status).toBe(401);
  });
});

describe('POST /api/workers/create-account before the owner decides', () => {
  afterEach(() => vi.restoreAllMocks());

  it('creates the account of an applicant under review with the link the "received" mail carried', async () => {
    // Prepare
    const { id, body } = await pendingApplication();

    // Act
    const res = await signup(await receivedMailToken(id));

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.worker).toMatchObject({ email: body.emailAddress, fullName: body.fullName, status: 'pending_review' });
    const profile = await workersRepo.findById(res.body.worker.id);
    expect(profile).toMatchObject({ applicationId: id, status: 'pending_review', isVerified: false, hasAccount: true, categories: body.servicesProvided });
    expect(await applicationsRepo.findEmailClaim(body.emailAddress)).toMatchObject({ applicationId: id, workerId: res.body.worker.id });
    expect((await applicationsRepo.findWorkerApplication(id))?.status).toBe('pending');
    expect((await invoke(listDocuments, withBearer(sampleEvent('list-documents'), res.body.token))).status).toBe(403);
  });

  it('creates the account from the approval mail\'s fresh link when the applicant had none', async () => {
    const { id } = await pendingApplication();
    const approved = await invoke(approveWorker, await asOwner('approve-worker', { id }));

    const res = await signup(await approvalMailToken(id));

    expect(res).toMatchObject({ status: 201, body: { worker: { id: approved.body.workerId, status: 'active' } } });
  });

  it('refuses an applicant whose application was rejected with 403 and a sentence, and writes nothing', async () => {
    const { id, body } = await pendingApplication();
    const token = await receivedMailToken(id);
    await invoke(rejectWorker, await asOwner('reject-worker', { id }));

    const res = await signup(token);

    expect(res).toMatchObject({ status: 403, body: { message: NO_APPLICATION } });
    expect(await applicationsRepo.findEmailClaim(body.emailAddress)).not.toHaveProperty('workerId');
    expect(await accountLinkOf(token)).not.toHaveProperty('usedAt');
  });

  it('adds the account to the profile an approval made between its read and its write: one profile, one account', async () => {
    // Prepare: the owner approves right after the signup read the application (still pending).
    const { id } = await pendingApplication();
    const token = await receivedMailToken(id);
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
    const res = await signup(token);

    // Assess
    expect(approvedAs).toEqual(expect.any(String));
    expect(res).toMatchObject({ status: 201, body: { worker: { id: approvedAs, status: 'active' } } });
    const profiles = (await workerAdmin.listAll()).filter((w) => w.applicationId === id);
    expect(profiles).toEqual([expect.objectContaining({ id: approvedAs, status: 'active', hasAccount: true })]);
    expect(await accountOf(approvedAs!)).toBeDefined();
  });

  it.each([1, 2, 3])('leaves one worker profile and one account when the approval races the signup (round %i)', async () => {
    // Prepare
    const { id, body } = await pendingApplication();
    const token = await receivedMailToken(id);
    const approval = await asOwner('approve-worker', { id });

    // Act: both at once, whichever lands first.
    const [account, approved] = await Promise.all([signup(token), invoke(approveWorker, approval)]);

    // Assess: both succeed, on the same profile, which is active, verified and has the account.
    expect(account.status).toBe(201);
    expect(approved.status).toBe(200);
    const profiles = (await workerAdmin.listAll()).filter((w) => w.applicationId === id);
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({ id: approved.body.workerId, status: 'active', isVerified: true, hasAccount: true });
    expect(account.body.worker.id).toBe(approved.body.workerId);
    expect(await applicationsRepo.findEmailClaim(body.emailAddress)).toMatchObject({ workerId: approved.body.workerId });
    const me = await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), account.body.token));
    expect(me.body.status).toBe('active');
  });
});
