import { createECDH, randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { ensureTable, localDynamoClient, seedCatalog } from '../../infra/local/dynamo';
import { handler as changePassword } from '../identity/change-password';
import { handler as createWorkerAccount } from '../identity/create-worker-account';
import { handler as applyWorker } from '../applications/apply-worker';
import { hashSecret } from '../common/auth/tokens';
import { fromAddress, invoke, sampleEvent, testOriginSecret, withBody, withCookies, type Invocation } from '../testing/events';
import { testSetupCode } from '../testing/owner';
import { createTestWorker, withBearer } from '../testing/workers';
import { handler as loginAdmin } from '../identity/login-admin';
import { handler as loginWorker } from '../identity/login-worker';
import { mailedResetToken } from '../testing/password-resets';
import { issueAccountLink } from '../testing/account-links';
import { handler as requestPasswordReset } from '../identity/request-password-reset';
import { handler as resetPassword } from '../identity/reset-password';
import { handler as setupAdmin } from '../owner/setup-admin';
import { handler as submitWorkerApplication } from '../applications/submit-worker-application';
import { handler as subscribePush } from '../realtime/subscribe-push';

/**
 * The logs never hold a password, a session cookie or bearer token (nor its hash), the
 * last digits of an SSN, or a push subscription's keys. Runs the journeys that handle them (owner
 * setup, logins right and wrong, password change, worker signup, both application forms, push
 * subscribe) with everything written to the console captured, then searches it for each secret.
 */
vi.hoisted(() => {
  process.env.TABLE_NAME = `marketplace-logs-${process.pid}`;
});

const lines: string[] = [];
const secrets: Record<string, string> = {};

const remember = (name: string, value: string | undefined) => {
  if (value) secrets[name] = value;
};
const cookieSecret = (res: Invocation) => res.cookies[0]?.split(';')[0]?.split('=')[1];

const fromIp = (event: APIGatewayProxyEventV2, address: string): APIGatewayProxyEventV2 => fromAddress(event, address);

beforeAll(async () => {
  const client = localDynamoClient(inject('dynamoEndpoint'));
  await ensureTable(client, process.env.TABLE_NAME!);
  await seedCatalog(client, process.env.TABLE_NAME!);
  client.destroy();
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? `${a.message}\n${a.stack}` : JSON.stringify(a))).join(' '));
    });
  }

  // The owner: setup, a wrong and a right login, a password change
  const ownerPassword = 'Juniper-Kettle-Orbit-71';
  const newOwnerPassword = 'Saffron-Ladder-Quiet-38';
  const wrongOwnerPassword = 'Almost-Right-Password-1';
  remember('owner password', ownerPassword);
  remember('new owner password', newOwnerPassword);
  remember('wrong owner password', wrongOwnerPassword);
  // The owner setup code and the origin secret CloudFront sends are secrets too.
  remember('setup code', testSetupCode());
  remember('origin secret', testOriginSecret());
  await invoke(setupAdmin, withBody(sampleEvent('setup-admin'), { setupCode: 'Wrong-Setup-Code-7', username: 'log-owner', email: 'log-owner@example.com', password: ownerPassword, confirm: ownerPassword }));
  remember('wrong setup code', 'Wrong-Setup-Code-7');
  const setup = await invoke(setupAdmin, withBody(sampleEvent('setup-admin'), { setupCode: testSetupCode(), username: 'log-owner', email: 'log-owner@example.com', password: ownerPassword, confirm: ownerPassword }));
  remember('setup session', cookieSecret(setup));
  await invoke(loginAdmin, fromIp(withBody(sampleEvent('login-admin'), { username: 'log-owner', password: wrongOwnerPassword }), '203.0.113.9'));
  const login = await invoke(loginAdmin, withBody(sampleEvent('login-admin'), { username: 'log-owner', password: ownerPassword }));
  const session = cookieSecret(login)!;
  remember('owner session', session);
  await invoke(
    changePassword,
    withCookies(withBody(sampleEvent('change-password'), { currentPassword: ownerPassword, newPassword: newOwnerPassword, confirmPassword: newOwnerPassword }), [`owner_session=${session}`]),
  );

  // A worker: signup, a wrong and a right login, push subscribe
  const worker = await createTestWorker();
  const workerPassword = 'Copper-Meadow-Violet-52';
  const wrongWorkerPassword = 'Not-The-Worker-Password-9';
  remember('worker password', workerPassword);
  remember('wrong worker password', wrongWorkerPassword);
  const accountLink = await issueAccountLink(worker.email);
  remember('account link secret', accountLink);
  const signup = await invoke(createWorkerAccount, withBody(sampleEvent('create-worker-account'), { token: accountLink, password: workerPassword, confirmPassword: workerPassword }));
  remember('signup token', signup.body?.token);
  await invoke(loginWorker, fromIp(withBody(sampleEvent('login-worker'), { email: worker.email, password: wrongWorkerPassword }), '203.0.113.10'));
  const workerLogin = await invoke(loginWorker, withBody(sampleEvent('login-worker'), { email: worker.email, password: workerPassword }));
  const token = workerLogin.body?.token as string;
  remember('worker token', token);
  // Keys a browser could hold (a P-256 point and a 16-byte secret), or the subscription is refused before anything is logged.
  const browserKey = createECDH('prime256v1');
  const pushKeys = { p256dh: browserKey.generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') };
  remember('push auth secret', pushKeys.auth);
  remember('push p256dh key', pushKeys.p256dh);
  await invoke(subscribePush, withBearer(withBody(sampleEvent('subscribe-push'), { endpoint: 'https://fcm.googleapis.com/fcm/send/log-hygiene-endpoint', keys: pushKeys, userAgent: 'log test' }), token));

  // A forgotten password: a link asked for the pro's address and for one nobody uses, mailed, spent
  const unknownEmail = 'nobody-log-hygiene@example.com';
  remember('reset-requested email', worker.email);
  remember('unknown reset-requested email', unknownEmail);
  await invoke(requestPasswordReset, fromIp(withBody(sampleEvent('request-password-reset'), { email: worker.email }), '203.0.113.11'));
  await invoke(requestPasswordReset, fromIp(withBody(sampleEvent('request-password-reset'), { email: unknownEmail }), '203.0.113.11'));
  const resetSecret = await mailedResetToken(worker.email, 'worker', worker.id);
  remember('reset link secret', resetSecret);
  const resetWorkerPassword = 'Harbor-Thistle-Quiet-64';
  remember('reset worker password', resetWorkerPassword);
  await invoke(resetPassword, withBody(sampleEvent('reset-password'), { token: resetSecret, password: resetWorkerPassword, confirmPassword: resetWorkerPassword }));

  // Both application forms, with SSN last digits (accepted or not, what they log counts)
  const application = JSON.parse(sampleEvent('submit-worker-application').body!) as Record<string, unknown>;
  await invoke(submitWorkerApplication, withBody(sampleEvent('submit-worker-application'), { ...application, emailAddress: 'ssn-one@example.com', ssnLastFour: '8093' }));
  await invoke(submitWorkerApplication, withBody(sampleEvent('submit-worker-application'), { ...application, emailAddress: 'ssn-two', ssnLastFour: '7351' }));
  const legacy = JSON.parse(sampleEvent('apply-worker').body!) as Record<string, unknown>;
  await invoke(applyWorker, withBody(sampleEvent('apply-worker'), { ...legacy, email: 'ssn-three@example.com', ssnLast4: '4721' }));
  remember('SSN digits (application)', '"8093"');
  remember('SSN digits (refused application)', '"7351"');
  remember('SSN digits (legacy application)', '"4721"');
}, 120_000);

afterAll(() => vi.restoreAllMocks());

describe('what the logs hold after the journeys that handle secrets', () => {
  it('captured the journeys (logins, failures, signups)', () => {
    expect(lines.length).toBeGreaterThan(5);
    expect(Object.keys(secrets)).toEqual(expect.arrayContaining(['owner session', 'worker token', 'signup token']));
  });

  it.each([
    'owner password',
    'new owner password',
    'wrong owner password',
    'worker password',
    'wrong worker password',
    'setup session',
    'setup code',
    'wrong setup code',
    'origin secret',
    'owner session',
    'signup token',
    'worker token',
    'push auth secret',
    'push p256dh key',
    'SSN digits (application)',
    'SSN digits (refused application)',
    'SSN digits (legacy application)',
    'reset-requested email',
    'unknown reset-requested email',
    'reset link secret',
    'reset worker password',
  ])('never contain the %s', (name) => {
    const secret = secrets[name];

    expect(secret, `${name} was not produced by the journey`).toBeTruthy();
    expect(lines.filter((line) => line.includes(secret!))).toEqual([]);
  });

  it('never contain a session or token hash, a password hash, or an ssn field', () => {
    const hashes = ['owner session', 'worker token', 'signup token', 'reset link secret'].map((n) => hashSecret(secrets[n]!));

    expect(lines.filter((line) => hashes.some((h) => line.includes(h)))).toEqual([]);
    expect(lines.filter((line) => /scrypt\$|"ssn/i.test(line))).toEqual([]);
  });
});
