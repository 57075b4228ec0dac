import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_MESSAGE } from '../../shared/common-passwords';
import { keys } from '../../shared/entities';
import { handler as getSelf } from '../workers/get-worker-self';
import { hashPassword } from '../common/auth/passwords';
import { LOGIN_SCOPE } from '../common/auth/login';
import { loginThrottle } from '../common/auth/throttle';
import { hashSecret } from '../common/auth/tokens';
import { dynamo, tableName } from '../common/clients';
import { passwordResets } from './data/password-resets';
import type { WorkerAccountItem, WorkerItem } from '../workers/data/workers';
import { passwordReset } from '../mail/messages/passwords';
import { fromAddress, invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { mailedResetToken, resetLinksOf } from '../testing/password-resets';
import { manySessions, sessionRowsOf } from '../testing/sessions';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';
import { handler as loginWorker } from './login-worker';
import { handler as requestReset } from './request-password-reset';
import { handler, LINK_REFUSED } from './reset-password';

const sample = sampleEvent('reset-password');
const OLD_PASSWORD = 'correct-horse-42';
const NEW_PASSWORD = 'Quiet-Meadow-Kettle-42';

const randomIp = () => `10.7.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

/** An approved pro with a login (written directly, as create-account leaves it). */
async function proWithAccount(overrides: Partial<WorkerItem> = {}): Promise<WorkerItem> {
  const worker = await createTestWorker({ email: `reset-${randomUUID()}@example.com`, ...overrides, hasAccount: true });
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

/** The pro asks for a link and opens the mail: the link's secret. */
async function mailedLink(worker: WorkerItem): Promise<string> {
  const asked = await invoke(requestReset, fromAddress(withBody(sampleEvent('request-password-reset'), { email: worker.email }), randomIp()));
  expect(asked.status).toBe(200);
  return mailedResetToken(worker.email, 'worker', worker.id);
}

const complete = (token: string, password = NEW_PASSWORD, address = randomIp()) =>
  invoke(handler, fromAddress(withBody(sample, { token, password, confirmPassword: password }), address));

const login = (email: string, password: string, cookies: string[] = [], address = randomIp()) =>
  invoke(loginWorker, fromAddress(withCookies(withBody(sampleEvent('login-worker'), { email, password }), cookies), address));

describe('POST /api/auth/password-reset/complete', () => {
  it("sets the pro's new password from the mailed link: the new one signs in, the old one no longer does", async () => {
    // Prepare
    const worker = await proWithAccount();
    const token = await mailedLink(worker);

    // Act
    const res = await complete(token);

    // Assess: nobody is signed in by it; the answer names the login page to use
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Password changed. Sign in with your new password.', role: 'worker' });
    expect(res.cookies).toEqual([]);
    expect((await login(worker.email, NEW_PASSWORD)).status).toBe(200);
    expect((await login(worker.email, OLD_PASSWORD)).status).toBe(401);
  });

  it('ends every session of the pro, however many Query pages they fill, and every device cookie', async () => {
    // Prepare: a signed-in phone, a browser with a device cookie, and sessions past one Query page
    const worker = await proWithAccount();
    const token = await workerToken(worker.id);
    const signedIn = await login(worker.email, OLD_PASSWORD);
    const device = signedIn.cookies.find((c) => c.startsWith('worker_device='))!.split(';')[0]!;
    await manySessions('worker', worker.id, 5000);
    expect((await sessionRowsOf('worker', worker.id)).pages).toBeGreaterThan(1);
    const link = await mailedLink(worker);

    // Act
    const res = await complete(link);

    // Assess
    expect(res.status).toBe(200);
    expect((await sessionRowsOf('worker', worker.id)).pks).toEqual([]);
    expect((await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), token))).status).toBe(401);
    expect((await invoke(getSelf, withBearer(sampleEvent('get-worker-self'), signedIn.body.token as string))).status).toBe(401);
    const deviceRow = await dynamo.send(
      new GetCommand({ TableName: tableName, Key: keys.deviceCookie(hashSecret(device.split('=')[1]!)), ConsistentRead: true }),
    );
    expect(deviceRow.Item).toBeUndefined();
  });

  it('answers a link used a second time with 410 and the "used" message, and changes nothing', async () => {
    // Prepare
    const worker = await proWithAccount();
    const token = await mailedLink(worker);
    expect((await complete(token)).status).toBe(200);

    // Act
    const again = await complete(token, 'Another-Fresh-Password-9');

    // Assess
    expect(again.status).toBe(410);
    expect(again.body).toEqual({ error: 'GoneError', message: LINK_REFUSED.used });
    expect((await login(worker.email, NEW_PASSWORD)).status).toBe(200);
    expect((await login(worker.email, 'Another-Fresh-Password-9')).status).toBe(401);
  });

  it('lets exactly one of two submits at once set the password; the other hears the link was used', async () => {
    // Prepare
    const worker = await proWithAccount();
    const token = await mailedLink(worker);
    const candidates = [`Race-A-${randomUUID()}`, `Race-B-${randomUUID()}`];

    // Act
    const results = await Promise.all(candidates.map((password) => complete(token, password)));

    // Assess
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
    expect(results.find((r) => r.status === 410)!.body.message).toBe(LINK_REFUSED.used);
    const winner = candidates[results.findIndex((r) => r.status === 200)]!;
    const loser = candidates[results.findIndex((r) => r.status === 410)]!;
    expect((await login(worker.email, winner)).status).toBe(200);
    expect((await login(worker.email, loser)).status).toBe(401);
  });

  it('answers an expired link with 410 and the "expired" message, and keeps the old password', async () => {
    // Prepare: a link issued as the request does, whose 30 minutes are over
    const worker = await proWithAccount();
    let secret = '';
    await passwordResets.issue({ role: 'worker', subjectId: worker.id }, -60, (link) => {
      secret = link.secret;
      return passwordReset({ ...link, role: 'worker', to: worker.email, name: worker.fullName });
    });

    // Act
    const res = await complete(secret);

    // Assess
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ error: 'GoneError', message: LINK_REFUSED.expired });
    expect((await login(worker.email, OLD_PASSWORD)).status).toBe(200);
  });

  it('answers a link nobody issued with 410 and the "does not work" message', async () => {
    const res = await complete('sVh4b2Fy0cJ4cQmJ3v1xk0Ck3pRr9yqH6lT8WzNdE1A');

    expect(res.status).toBe(410);
    expect(res.body).toEqual({ error: 'GoneError', message: LINK_REFUSED.unknown });
  });

  it('ends the other links mailed to the pro once one of them sets the password', async () => {
    // Prepare: two requests, two mails; the first link is the one opened
    const worker = await proWithAccount();
    const first = await mailedLink(worker);
    const second = await mailedLink(worker);
    expect(await resetLinksOf('worker', worker.id)).toHaveLength(2);

    // Act
    const used = await complete(first);
    const other = await complete(second, 'Another-Fresh-Password-9');

    // Assess
    expect(used.status).toBe(200);
    expect(other.status).toBe(410);
    expect(other.body.message).toBe(LINK_REFUSED.unknown);
    expect((await login(worker.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a common or mismatched new password with a message on its field, and spends nothing', async () => {
    // Prepare
    const worker = await proWithAccount();
    const token = await mailedLink(worker);

    // Act
    const common = await complete(token, 'iloveyou1');
    const mismatched = await invoke(handler, fromAddress(withBody(sample, { token, password: NEW_PASSWORD, confirmPassword: 'something-else-1' }), randomIp()));

    // Assess: the link still works afterwards
    expect(common).toMatchObject({ status: 400, body: { fields: { password: COMMON_PASSWORD_MESSAGE } } });
    expect(mismatched).toMatchObject({ status: 400, body: { fields: { confirmPassword: "Passwords don't match" } } });
    expect((await complete(token)).status).toBe(200);
  });

  it("clears this address's wrong-password count for the pro, so their own browser is not locked out", async () => {
    // Prepare: five wrong passwords from this address lock the pro's name here
    const worker = await proWithAccount();
    const address = randomIp();
    for (let i = 0; i < 5; i++) {
      await loginThrottle.begin(LOGIN_SCOPE.worker, { account: worker.email, address });
    }
    expect((await login(worker.email, OLD_PASSWORD, [], address)).status).toBe(429);
    const token = await mailedLink(worker);

    // Act
    expect((await complete(token, NEW_PASSWORD, address)).status).toBe(200);
    const res = await login(worker.email, NEW_PASSWORD, [], address);

    // Assess
    expect(res.status).toBe(200);
  });
});
