/**
 * Everything that depends on the owner's own credentials lives in this ONE file, on a table of its
 * own: the owner is a singleton, so the file starts from "not set up" without disturbing the other
 * files' owner. Its describe blocks run in order.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureTable, localDynamoClient } from '../../infra/local/dynamo';
import { COMMON_PASSWORD_MESSAGE } from '../../shared/common-passwords';
import { keys } from '../../shared/entities';
import { handler as changePassword } from '../identity/change-password';
import { handler as getAdminStatus } from './get-admin-status';
import { handler as getCurrentUser } from '../identity/get-current-user';
import { handler as getOwnerEmail } from './get-owner-email';
import { handler as getSetupStatus } from './get-setup-status';
import { verifyPassword } from '../common/auth/passwords';
import { hashSecret } from '../common/auth/tokens';
import { dynamo, tableName } from '../common/clients';
import type { OwnerItem } from '../identity/data/owner';
import { fromAddress, invoke, sampleEvent, withBody, withCookies, type Invocation } from '../testing/events';
import { strangersFail } from '../testing/logins';
import { ownerTestSession, testSetupCode } from '../testing/owner';
import { manySessions, sessionRowsOf } from '../testing/sessions';
import { handler as loginAdmin } from '../identity/login-admin';
import { handler as logoutAdmin } from '../identity/logout-admin';
import { mailsTo, outboxMailsTo } from '../testing/mail';
import { mailedResetToken, resetLinksOf } from '../testing/password-resets';
import { handler as requestReset, RESET_REQUESTED } from '../identity/request-password-reset';
import { handler as resetPassword } from '../identity/reset-password';
import { handler as setOwnerEmail } from './set-owner-email';
import { handler, WRONG_SETUP_CODE } from './setup-admin';

const setupSample = sampleEvent('setup-admin');
const loginSample = sampleEvent('login-admin');

/** Every response body seen in this file, to prove none carries a password hash. */
const seen: unknown[] = [];
async function call(fn: Parameters<typeof invoke>[0], event: APIGatewayProxyEventV2): Promise<Invocation> {
  const res = await invoke(fn, event);
  seen.push(res.body);
  return res;
}

const randomIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

const fromIp = (event: APIGatewayProxyEventV2, address: string): APIGatewayProxyEventV2 => fromAddress(event, address);

/** The owner's address as typed at setup (mixed case: it is stored lower-case). */
const OWNER_EMAIL = `Owner-${randomUUID()}@Example.com`;

const setup = (username: string, password: string, setupCode = testSetupCode()) =>
  withBody(setupSample, { setupCode, username, email: OWNER_EMAIL, password, confirm: password });
const login = (username: string, password: string, ip = randomIp()) =>
  fromIp(withBody(loginSample, { username, password }), ip);
const asCookie = (setCookie: string) => setCookie.split(';')[0]!;
const secretOf = (setCookie: string) => asCookie(setCookie).split('=')[1]!;

/** The device cookie a successful login leaves in its browser, as the browser sends it back. */
async function ownerDeviceCookie(): Promise<string> {
  const res = await call(loginAdmin, login(owner.username, owner.password));
  expect(res.status).toBe(200);
  return asCookie(res.cookies.find((c) => c.startsWith('owner_device='))!);
}

/** The stored row of a device cookie, if it still exists. */
async function deviceRow(cookie: string) {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.deviceCookie(hashSecret(secretOf(cookie))), ConsistentRead: true }));
  return out.Item;
}

async function ownerItem(): Promise<OwnerItem | undefined> {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.owner(), ConsistentRead: true }));
  return out.Item as OwnerItem | undefined;
}

async function statusWith(cookie?: string) {
  const event = sampleEvent('get-admin-status');
  return (await call(getAdminStatus, cookie ? withCookies(event, [cookie]) : event)).body as {
    isAdmin: boolean;
    isSetup: boolean;
  };
}

/** The owner this file creates; filled by the concurrent-setup case. */
const owner = { username: '', password: '', cookie: '', email: OWNER_EMAIL.toLowerCase() };

// Before the handlers are imported: they read TABLE_NAME once, at import.
const ownTable = vi.hoisted(() => {
  const name = `owner-tests-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  process.env.TABLE_NAME = name;
  return name;
});

beforeAll(async () => {
  const client = localDynamoClient(process.env.DYNAMODB_ENDPOINT!);
  await ensureTable(client, ownTable);
  client.destroy();
});

describe('before setup', () => {
  it('says setup is needed and nobody is admin', async () => {
    const setupStatus = await call(getSetupStatus, sampleEvent('get-setup-status'));

    expect(setupStatus.body).toEqual({ needsSetup: true });
    expect(await statusWith()).toEqual({ isAdmin: false, isSetup: false });
  });

  it('refuses a login with the same answer as a wrong password', async () => {
    const res = await call(loginAdmin, login('owner', 'whatever-password'));

    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid username or password');
  });
});

describe('POST /api/admin/setup', () => {
  it('refuses one of the most common passwords with a message saying what to do, and writes nothing', async () => {
    const res = await call(handler, setup('owner-x', 'Password123'));

    expect(res).toMatchObject({ status: 400, body: { fields: { password: COMMON_PASSWORD_MESSAGE } } });
    expect(await ownerItem()).toBeUndefined();
  });

  it('refuses mismatched passwords on the confirm field and writes nothing', async () => {
    const res = await call(
      handler,
      withBody(setupSample, { setupCode: testSetupCode(), username: 'owner-x', email: OWNER_EMAIL, password: 'long-enough-1', confirm: 'long-enough-2' }),
    );

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ confirm: 'Passwords do not match. Please try again.' });
    expect(await ownerItem()).toBeUndefined();
  });

  it('asks for the setup code when none is sent, and writes nothing', async () => {
    const res = await call(handler, withBody(setupSample, { username: 'owner-x', email: OWNER_EMAIL, password: 'Lantern-Harbor-42', confirm: 'Lantern-Harbor-42' }));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ setupCode: 'Enter the setup code' });
    expect(await ownerItem()).toBeUndefined();
  });

  it("asks for the owner's email, where a password-reset link would go, and writes nothing", async () => {
    const res = await call(handler, withBody(setupSample, { setupCode: testSetupCode(), username: 'owner-x', password: 'Lantern-Harbor-42', confirm: 'Lantern-Harbor-42' }));
    const malformed = await call(handler, withBody(setupSample, { setupCode: testSetupCode(), username: 'owner-x', email: 'owner-at-example', password: 'Lantern-Harbor-42', confirm: 'Lantern-Harbor-42' }));

    for (const answer of [res, malformed]) {
      expect(answer.status).toBe(400);
      expect(answer.body.fields).toEqual({ email: 'Enter a valid email address' });
    }
    expect(await ownerItem()).toBeUndefined();
  });

  it('refuses a wrong setup code with 403 saying where the right one is, and writes nothing', async () => {
    // Act
    const res = await call(handler, fromIp(setup('owner-x', 'Lantern-Harbor-42', `${testSetupCode()}x`), randomIp()));

    // Assess
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'ForbiddenError', message: WRONG_SETUP_CODE });
    expect(res.body.message).toMatch(/npm start/);
    expect(res.body.message).toMatch(/SetupCodeCommand/);
    expect(res.cookies).toEqual([]);
    expect(await ownerItem()).toBeUndefined();
  });

  it('counts wrong setup codes like wrong passwords: past 5 from one address even the right code gets 429, another address does not', async () => {
    // Prepare
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      expect((await call(handler, fromIp(setup('owner-x', 'Lantern-Harbor-42', `wrong-code-${i}`), ip))).status).toBe(403);
    }

    // Act
    const blocked = await call(handler, fromIp(setup('owner-x', 'Lantern-Harbor-42'), ip));
    const elsewhere = await call(handler, fromIp(setup('owner-x', 'Lantern-Harbor-42', 'wrong-code-again'), randomIp()));

    // Assess
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body.message).toMatch(/^Too many failed attempts\. Try again in \d+ minutes?\.$/);
    expect(elsewhere.status).toBe(403);
    expect(await ownerItem()).toBeUndefined();
  });

  it('ends two concurrent setups with exactly one owner: one 201, one 409', async () => {
    // Prepare
    const password = `pw-${randomUUID()}`;
    const names = [`owner-a-${randomUUID().slice(0, 8)}`, `owner-b-${randomUUID().slice(0, 8)}`];

    // Act
    const results = await Promise.all(names.map((name) => call(handler, setup(name, password))));

    // Assess
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const winner = results.find((r) => r.status === 201)!;
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body).toEqual({
      error: 'ConflictError',
      message: 'The owner account is already set up. Log in instead.',
    });
    expect(loser.cookies).toEqual([]);
    const stored = (await ownerItem())!;
    expect(stored.username).toBe(winner.body.user.username);
    expect(winner.body).toEqual({
      message: 'Admin account created',
      user: { id: stored.id, role: 'admin', username: stored.username },
    });
    owner.username = stored.username;
    owner.password = password;
    owner.cookie = asCookie(winner.cookies[0]!);
  });

  it("stores the owner's email in lower case", async () => {
    expect((await ownerItem())!.email).toBe(OWNER_EMAIL.toLowerCase());
  });

  it('stores a scrypt hash, never the password', async () => {
    const stored = (await ownerItem())!;

    expect(stored.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(stored)).not.toContain(owner.password);
    expect(await verifyPassword(owner.password, stored.passwordHash)).toBe(true);
  });

  it('logs the new owner in with a session cookie', async () => {
    expect(await statusWith(owner.cookie)).toEqual({ isAdmin: true, isSetup: true });
  });

  it('refuses a second setup with 409 and changes nothing', async () => {
    // Prepare
    const before = await ownerItem();

    // Act: with the code, and without the right one (the code opens nothing once an owner exists)
    const res = await call(handler, setup(`late-${randomUUID().slice(0, 8)}`, 'another-password'));
    const wrongCode = await call(handler, setup(`late-${randomUUID().slice(0, 8)}`, 'another-password', 'not-the-code'));

    // Assess
    for (const answer of [res, wrongCode]) {
      expect(answer.status).toBe(409);
      expect(answer.body.message).toBe('The owner account is already set up. Log in instead.');
      expect(answer.cookies).toEqual([]);
    }
    expect(await ownerItem()).toEqual(before);
  });

  it('then says setup is no longer needed', async () => {
    const res = await call(getSetupStatus, sampleEvent('get-setup-status'));

    expect(res.body).toEqual({ needsSetup: false });
    expect((await statusWith()).isSetup).toBe(true);
  });
});

describe('POST /api/admin/login', () => {
  it('logs in with a new HttpOnly SameSite=Lax session cookie (no Secure on the local stage)', async () => {
    // Act
    const res = await call(loginAdmin, login(owner.username, owner.password));

    // Assess
    expect(res.status).toBe(200);
    const stored = (await ownerItem())!;
    expect(res.body).toEqual({
      message: 'Login successful',
      user: { id: stored.id, role: 'admin', username: owner.username },
    });
    expect(res.cookies).toHaveLength(2);
    expect(res.cookies[0]).toMatch(/^owner_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; SameSite=Lax; HttpOnly$/);
    expect(res.cookies[1]).toMatch(/^owner_device=[A-Za-z0-9_-]{43}; Path=\/api\/admin\/login; Max-Age=15552000; SameSite=Lax; HttpOnly$/);
    expect(res.cookies.join()).not.toContain('Secure');
  });

  it('stores only a hash of the session secret, with a TTL', async () => {
    // Prepare
    const res = await call(loginAdmin, login(owner.username, owner.password));
    const secret = secretOf(res.cookies[0]!);

    // Act
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.session(hashSecret(secret)) }));

    // Assess
    const item = out.Item!;
    expect(item).toBeDefined();
    expect(Object.values(item)).not.toContain(secret);
    expect(JSON.stringify(item)).not.toContain(secret);
    expect(item.expiresAt).toBeGreaterThan(Date.now() / 1000);
  });

  it('starts a new session at every login, each one valid', async () => {
    // Act
    const first = await call(loginAdmin, login(owner.username, owner.password));
    const second = await call(loginAdmin, login(owner.username, owner.password));

    // Assess
    const [a, b] = [asCookie(first.cookies[0]!), asCookie(second.cookies[0]!)];
    expect(a).not.toBe(b);
    for (const cookie of [a, b]) {
      const me = await call(getCurrentUser, withCookies(sampleEvent('get-current-user'), [cookie]));
      expect(me.body).toEqual({ ok: true, user: { id: (await ownerItem())!.id, role: 'admin', username: owner.username } });
    }
  });

  it('answers a wrong password and an unknown username with the same 401', async () => {
    // Act
    const wrongPassword = await call(loginAdmin, login(owner.username, 'not-the-password'));
    const unknownName = await call(loginAdmin, login(`nobody-${randomUUID().slice(0, 8)}`, owner.password));

    // Assess
    for (const res of [wrongPassword, unknownName]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'UnauthorizedError', message: 'Invalid username or password' });
      expect(res.cookies).toEqual([]);
    }
  });

  it('refuses the 6th attempt after 5 wrong passwords, even the right one, but not from another address', async () => {
    // Prepare
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      expect((await call(loginAdmin, login(owner.username, `wrong-${i}`, ip))).status).toBe(401);
    }

    // Act
    const blocked = await call(loginAdmin, login(owner.username, owner.password, ip));
    const elsewhere = await call(loginAdmin, login(owner.username, owner.password, randomIp()));

    // Assess
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.body.message).toMatch(/^Too many failed attempts\. Try again in \d+ minutes?\.$/);
    expect(blocked.cookies).toEqual([]);
    expect(elsewhere.status).toBe(200);
  });

  it('clears the failure count after a successful login', async () => {
    // Prepare: 4 failures, then a success
    const ip = randomIp();
    for (let i = 0; i < 4; i++) await call(loginAdmin, login(owner.username, `wrong-${i}`, ip));
    expect((await call(loginAdmin, login(owner.username, owner.password, ip))).status).toBe(200);

    // Act: 4 more failures would be the 8th in a row without the reset
    for (let i = 0; i < 4; i++) await call(loginAdmin, login(owner.username, `wrong-${i}`, ip));
    const res = await call(loginAdmin, login(owner.username, owner.password, ip));

    // Assess
    expect(res.status).toBe(200);
  });
});

describe('POST /api/admin/logout', () => {
  it('ends the session server-side and clears the cookie', async () => {
    // Prepare
    const cookie = asCookie((await call(loginAdmin, login(owner.username, owner.password))).cookies[0]!);
    expect((await statusWith(cookie)).isAdmin).toBe(true);

    // Act
    const res = await call(logoutAdmin, withCookies(sampleEvent('logout-admin'), [cookie]));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(res.cookies[0]).toMatch(/^owner_session=; Path=\/; Max-Age=0; SameSite=Lax; HttpOnly$/);
    expect(await statusWith(cookie)).toEqual({ isAdmin: false, isSetup: true });
    const me = await call(getCurrentUser, withCookies(sampleEvent('get-current-user'), [cookie]));
    expect(me.status).toBe(401);
  });
});

describe('POST /api/auth/change-password', () => {
  const sample = sampleEvent('change-password');
  const change = (cookie: string, currentPassword: string, newPassword: string) =>
    withCookies(withBody(sample, { currentPassword, newPassword, confirmPassword: newPassword }), [cookie]);
  const freshSession = async () =>
    asCookie((await call(loginAdmin, login(owner.username, owner.password))).cookies[0]!);

  it('refuses a wrong current password and keeps the old one', async () => {
    // Prepare
    const cookie = await freshSession();
    const before = (await ownerItem())!.passwordHash;

    // Act
    const res = await call(changePassword, change(cookie, 'not-the-password', 'brand-new-password'));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ currentPassword: 'Current password is incorrect' });
    expect((await ownerItem())!.passwordHash).toBe(before);
  });

  it('refuses a common new password and keeps the old one', async () => {
    // Prepare
    const cookie = await freshSession();
    const before = (await ownerItem())!.passwordHash;

    // Act
    const res = await call(changePassword, change(cookie, owner.password, 'iloveyou1'));

    // Assess
    expect(res).toMatchObject({ status: 400, body: { fields: { newPassword: COMMON_PASSWORD_MESSAGE } } });
    expect((await ownerItem())!.passwordHash).toBe(before);
  });

  it('refuses a new password equal to the current one', async () => {
    const cookie = await freshSession();

    const res = await call(changePassword, change(cookie, owner.password, owner.password));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ newPassword: 'Choose a password different from the current one' });
  });

  it('changes the password, ends the other sessions and keeps the current one', async () => {
    // Prepare
    const other = await freshSession();
    const current = await freshSession();
    const newPassword = `new-${randomUUID()}`;

    // Act
    const res = await call(changePassword, change(current, owner.password, newPassword));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Password changed' });
    expect((await statusWith(current)).isAdmin).toBe(true);
    expect((await statusWith(other)).isAdmin).toBe(false);
    expect((await call(loginAdmin, login(owner.username, owner.password))).status).toBe(401);
    expect((await call(loginAdmin, login(owner.username, newPassword))).status).toBe(200);
    owner.password = newPassword;
  });

  it('ends every other session, however many Query pages they fill, and keeps the current one', async () => {
    // Prepare: sessions written straight to the table, more than one Query page holds
    const ownerId = (await ownerItem())!.id;
    const current = await freshSession();
    await manySessions('admin', ownerId, 5000);
    expect((await sessionRowsOf('admin', ownerId)).pages).toBeGreaterThan(1);
    const newPassword = `new-${randomUUID()}`;

    // Act
    const res = await call(changePassword, change(current, owner.password, newPassword));

    // Assess
    expect(res.status).toBe(200);
    owner.password = newPassword;
    expect((await sessionRowsOf('admin', ownerId)).pks).toEqual([keys.session(hashSecret(secretOf(current))).pk]);
    expect((await statusWith(current)).isAdmin).toBe(true);
  });

  it('ends every device cookie earned with the old password and leaves a new one in this browser', async () => {
    // Prepare: two browsers that logged in before
    const earlier = [await ownerDeviceCookie(), await ownerDeviceCookie()];
    const current = await freshSession();
    const newPassword = `new-${randomUUID()}`;

    // Act
    const res = await call(changePassword, change(current, owner.password, newPassword));

    // Assess
    expect(res.status).toBe(200);
    owner.password = newPassword;
    for (const cookie of earlier) expect(await deviceRow(cookie)).toBeUndefined();
    expect(res.cookies).toHaveLength(1);
    expect(res.cookies[0]).toMatch(/^owner_device=[A-Za-z0-9_-]{43}; Path=\/api\/admin\/login; /);
    expect(await deviceRow(asCookie(res.cookies[0]!))).toMatchObject({ role: 'admin', subjectId: (await ownerItem())!.id });
  });

  it('ends the reset links mailed before the change: the mail cannot set the password again', async () => {
    // Prepare: a link mailed to the owner, still unused
    const ownerId = (await ownerItem())!.id;
    await call(requestReset, fromIp(withBody(sampleEvent('request-password-reset'), { email: owner.email }), randomIp()));
    const token = await mailedResetToken(owner.email, 'admin', ownerId);
    const current = await freshSession();
    const newPassword = `new-${randomUUID()}`;

    // Act
    const res = await call(changePassword, change(current, owner.password, newPassword));
    const reset = await call(resetPassword, fromIp(withBody(sampleEvent('reset-password'), { token, password: 'taken-over-1', confirmPassword: 'taken-over-1' }), randomIp()));

    // Assess
    expect(res.status).toBe(200);
    owner.password = newPassword;
    expect(reset.status).toBe(410);
    expect(await resetLinksOf('admin', ownerId)).toEqual([]);
    expect((await call(loginAdmin, login(owner.username, newPassword))).status).toBe(200);
  });

  it('lets exactly one of two concurrent changes win', async () => {
    // Prepare
    const cookie = await freshSession();
    const candidates = [`race-a-${randomUUID()}`, `race-b-${randomUUID()}`];

    // Act
    const results = await Promise.all(candidates.map((pw) => call(changePassword, change(cookie, owner.password, pw))));

    // Assess
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = candidates[results.findIndex((r) => r.status === 200)]!;
    expect(await verifyPassword(winner, (await ownerItem())!.passwordHash)).toBe(true);
    owner.password = winner;
  });

  it('slows down repeated wrong current passwords', async () => {
    // Prepare
    const cookie = await freshSession();
    for (let i = 0; i < 5; i++) {
      expect((await call(changePassword, change(cookie, `wrong-${i}`, 'brand-new-password'))).status).toBe(400);
    }

    // Act
    const res = await call(changePassword, change(cookie, owner.password, 'brand-new-password'));

    // Assess
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('PUT /api/admin/email', () => {
  const sample = sampleEvent('set-owner-email');
  const setEmail = (cookie: string, email: string, currentPassword: string) =>
    withCookies(withBody(sample, { email, currentPassword }), [cookie]);
  const freshSession = async () => asCookie((await call(loginAdmin, login(owner.username, owner.password))).cookies[0]!);

  it('reads back the email given at setup', async () => {
    const res = await call(getOwnerEmail, withCookies(sampleEvent('get-owner-email'), [await freshSession()]));

    expect(res).toMatchObject({ status: 200, body: { email: OWNER_EMAIL.toLowerCase() } });
  });

  it('refuses a wrong current password on its field and keeps the email', async () => {
    // Prepare
    const cookie = await freshSession();

    // Act
    const res = await call(setOwnerEmail, setEmail(cookie, `other-${randomUUID()}@example.com`, 'not-the-password'));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ currentPassword: 'Current password is incorrect' });
    expect((await ownerItem())!.email).toBe(OWNER_EMAIL.toLowerCase());
  });

  it('answers 401 without an owner session, and to a session of nobody who is the owner', async () => {
    const without = await call(setOwnerEmail, withBody(sample, { email: 'x@example.com', currentPassword: owner.password }));
    const stranger = await call(setOwnerEmail, setEmail((await ownerTestSession()).cookie, 'x@example.com', owner.password));

    const strangerReads = await call(getOwnerEmail, withCookies(sampleEvent('get-owner-email'), [(await ownerTestSession()).cookie]));

    expect(without.status).toBe(401);
    expect(stranger.status).toBe(401);
    expect(strangerReads.status).toBe(401);
    expect((await ownerItem())!.email).toBe(OWNER_EMAIL.toLowerCase());
  });

  it('changes the email with the current password: reset links go to the new address, not the old one', async () => {
    // Prepare
    const cookie = await freshSession();
    const newEmail = `New-Owner-${randomUUID()}@Example.com`;
    const mailedToOldBefore = (await outboxMailsTo('password-reset', OWNER_EMAIL.toLowerCase())).length;

    // Act
    const res = await call(setOwnerEmail, setEmail(cookie, newEmail, owner.password));
    await call(requestReset, fromIp(withBody(sampleEvent('request-password-reset'), { email: OWNER_EMAIL }), randomIp()));
    await call(requestReset, fromIp(withBody(sampleEvent('request-password-reset'), { email: newEmail }), randomIp()));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Email saved. Password-reset links now go to this address.', email: newEmail.toLowerCase() });
    expect((await ownerItem())!.email).toBe(newEmail.toLowerCase());
    expect((await call(getOwnerEmail, withCookies(sampleEvent('get-owner-email'), [cookie]))).body).toEqual({ email: newEmail.toLowerCase() });
    expect(await outboxMailsTo('password-reset', OWNER_EMAIL.toLowerCase())).toHaveLength(mailedToOldBefore);
    expect(await outboxMailsTo('password-reset', newEmail.toLowerCase())).toHaveLength(1);
    owner.email = newEmail.toLowerCase();
  });

  it('ends the reset links mailed to the address it replaces', async () => {
    // Prepare: a link mailed to the current address, still unused
    const ownerId = (await ownerItem())!.id;
    await call(requestReset, fromIp(withBody(sampleEvent('request-password-reset'), { email: owner.email }), randomIp()));
    const token = await mailedResetToken(owner.email, 'admin', ownerId);

    // Act
    const res = await call(setOwnerEmail, setEmail(await freshSession(), `Third-${randomUUID()}@Example.com`, owner.password));
    const reset = await call(resetPassword, fromIp(withBody(sampleEvent('reset-password'), { token, password: 'taken-over-1', confirmPassword: 'taken-over-1' }), randomIp()));

    // Assess
    expect(res.status).toBe(200);
    owner.email = res.body.email as string;
    expect(reset.status).toBe(410);
    expect(await resetLinksOf('admin', ownerId)).toEqual([]);
  });
});

describe("the owner's forgotten password", () => {
  it('mails the owner a link that sets a new password, ends every session and device cookie, and signs nobody in', async () => {
    // Prepare: two signed-in browsers, one of them with a device cookie
    const stored = (await ownerItem())!;
    const device = await ownerDeviceCookie();
    const session = asCookie((await call(loginAdmin, login(owner.username, owner.password))).cookies[0]!);
    expect((await statusWith(session)).isAdmin).toBe(true);
    const asked = await call(requestReset, fromIp(withBody(sampleEvent('request-password-reset'), { email: owner.email }), randomIp()));
    const token = await mailedResetToken(owner.email, 'admin', stored.id);
    const newPassword = `reset-${randomUUID()}`;

    // Act
    const res = await call(resetPassword, fromIp(withBody(sampleEvent('reset-password'), { token, password: newPassword, confirmPassword: newPassword }), randomIp()));

    // Assess
    expect(asked.body).toEqual({ message: RESET_REQUESTED });
    const mail = (await mailsTo(owner.email)).at(-1)!;
    expect(mail.text).toContain(`Hi ${owner.username},`);
    expect(mail.text).toContain('the Fixly owner account');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Password changed. Sign in with your new password.', role: 'admin' });
    expect(res.cookies).toEqual([]);
    expect((await statusWith(session)).isAdmin).toBe(false);
    expect((await statusWith(owner.cookie)).isAdmin).toBe(false);
    expect(await deviceRow(device)).toBeUndefined();
    expect((await call(loginAdmin, login(owner.username, owner.password))).status).toBe(401);
    expect((await call(loginAdmin, login(owner.username, newPassword))).status).toBe(200);
    owner.password = newPassword;
  });
});

describe('device cookies', () => {
  it('counts wrong passwords on a device against its cookie alone: past 5 only that cookie is refused', async () => {
    // Prepare: two devices of the owner; five wrong passwords on one
    const [guessed, other] = [await ownerDeviceCookie(), await ownerDeviceCookie()];
    const ip = randomIp();
    for (let i = 0; i < 5; i++) {
      const res = await call(loginAdmin, withCookies(login(owner.username, `wrong-${i}`, ip), [guessed]));
      expect(res.body).toEqual({ error: 'UnauthorizedError', message: 'Invalid username or password' });
    }

    // Act
    const locked = await call(loginAdmin, withCookies(login(owner.username, owner.password, ip), [guessed]));
    const otherDevice = await call(loginAdmin, withCookies(login(owner.username, owner.password, ip), [other]));
    const noDevice = await call(loginAdmin, login(owner.username, owner.password, ip));

    // Assess: the same refusal as the name's own lockout; neither the address nor the name lost a place
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.body.message).toMatch(/^Too many failed attempts\. Try again in \d+ minutes?\.$/);
    expect(locked.cookies).toEqual([]);
    expect(otherDevice.status).toBe(200);
    expect(noDevice.status).toBe(200);
  });

  it('lets the owner log in on their own device after strangers failed 60 times from 10 addresses; without it, 429', async () => {
    // Prepare: the attack's failures recorded through the throttle as wrong passwords leave them (60
    // real ones would cost 60 scrypt hashes). It leaves the owner's name locked for 15 minutes, so
    // it comes last of the tests that log in.
    const device = await ownerDeviceCookie();
    await strangersFail('admin-login', owner.username);

    // Act
    const withDevice = await call(loginAdmin, withCookies(login(owner.username, owner.password), [device]));
    const withoutDevice = await call(loginAdmin, login(owner.username, owner.password));

    // Assess
    expect(withDevice.status).toBe(200);
    expect(withDevice.body.message).toBe('Login successful');
    expect(withoutDevice.status).toBe(429);
    expect(withoutDevice.body.message).toMatch(/^Too many failed attempts\. Try again in \d+ minutes?\.$/);
    expect(withoutDevice.cookies).toEqual([]);
  });
});

describe('every response of this file', () => {
  it('never carried a password hash', () => {
    const text = JSON.stringify(seen);
    expect(seen.length).toBeGreaterThan(20);
    expect(text).not.toContain('passwordHash');
    expect(text).not.toContain('scrypt$');
  });
});
