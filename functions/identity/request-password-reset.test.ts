import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/entities';
import { hashPassword } from '../common/auth/passwords';
import { dynamo, tableName } from '../common/clients';
import type { WorkerAccountItem, WorkerItem } from '../workers/data/workers';
import { fromAddress, invoke, sampleEvent, withBody } from '../testing/events';
import { mailsTo, outboxMailsTo, outboxRecord } from '../testing/mail';
import { resetLinksOf, tokenIn } from '../testing/password-resets';
import { createTestWorker } from '../testing/workers';
import { handler, RESET_REQUESTED } from './request-password-reset';
import { handler as sendMail } from '../mail/send-mail';

const sample = sampleEvent('request-password-reset');

const randomIp = () => `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

const ask = (email: string, address = randomIp()) => invoke(handler, fromAddress(withBody(sample, { email }), address));

/** A pro with a login (written directly, as create-account leaves it). */
async function proWithAccount(overrides: Partial<WorkerItem> = {}): Promise<WorkerItem> {
  const worker = await createTestWorker({ email: `forgot-${randomUUID()}@example.com`, ...overrides, hasAccount: true });
  const account: WorkerAccountItem = {
    ...keys.workerAccount(worker.id),
    entity: 'worker-account',
    workerId: worker.id,
    passwordHash: await hashPassword('correct-horse-42'),
    createdAt: new Date().toISOString(),
  };
  await dynamo.send(new PutCommand({ TableName: tableName, Item: account }));
  return worker;
}

describe('POST /api/auth/password-reset', () => {
  it('mails the pro one single-use link to the reset page, once, even when the record is delivered twice', async () => {
    // Prepare
    const worker = await proWithAccount({ fullName: 'Maria Lopez' });

    // Act: asked with the address as the pro types it; the stream hands the mail over twice
    const res = await ask(`  ${worker.email.toUpperCase()} `);
    const [link] = await resetLinksOf('worker', worker.id);
    const record = await outboxRecord('password-reset', link!.id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: RESET_REQUESTED });
    const mails = await mailsTo(worker.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Choose a new Fixly password');
    expect(mails[0]!.text).toContain('Hi Maria Lopez,');
    expect(mails[0]!.text).toContain('your Fixly pro account');
    expect(mails[0]!.text).toContain('it works once, for 30 minutes');
    expect(mails[0]!.text).toMatch(/Choose a new password: http:\/\/localhost:3000\/reset-password#token=[A-Za-z0-9_-]{43}\n/);
    // The table keeps only the secret's hash: the link's id keys the mail, never the secret.
    const secret = tokenIn(mails[0]!.text);
    expect(link!.pk).not.toContain(secret);
    expect(link!.id).not.toBe(secret);
    expect(link).toMatchObject({ role: 'worker', subjectId: worker.id });
    expect(link!.expiresAt - Math.floor(Date.now() / 1000)).toBeGreaterThan(25 * 60);
    expect(link!.expiresAt - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(30 * 60);
  });

  it('answers an address no account uses exactly as a known one, and queues no mail', async () => {
    // Prepare
    const known = await proWithAccount();
    const unknown = `nobody-${randomUUID()}@example.com`;

    // Act
    const forKnown = await ask(known.email);
    const forUnknown = await ask(unknown);

    // Assess
    expect(forUnknown.status).toBe(forKnown.status);
    expect(forUnknown.body).toEqual(forKnown.body);
    expect(forUnknown.headers).toEqual(forKnown.headers);
    expect(forUnknown.cookies).toEqual(forKnown.cookies);
    expect(await outboxMailsTo('password-reset', unknown)).toEqual([]);
    expect(await outboxMailsTo('password-reset', known.email)).toHaveLength(1);
  });

  it('sends nothing to an approved pro who has not made an account yet (there is no password to reset)', async () => {
    const worker = await createTestWorker({ email: `no-account-${randomUUID()}@example.com` });

    const res = await ask(worker.email);

    expect(res).toMatchObject({ status: 200, body: { message: RESET_REQUESTED } });
    expect(await resetLinksOf('worker', worker.id)).toEqual([]);
    expect(await outboxMailsTo('password-reset', worker.email)).toEqual([]);
  });

  it('mails a pro whose account is suspended or under review too: every status with an account signs in', async () => {
    const suspended = await proWithAccount({ status: 'suspended' });
    const underReview = await proWithAccount({ status: 'pending_review' });

    await ask(suspended.email);
    await ask(underReview.email);

    expect(await resetLinksOf('worker', suspended.id)).toHaveLength(1);
    expect(await resetLinksOf('worker', underReview.id)).toHaveLength(1);
  });

  it('counts requests like logins: past 5 for one address from one connection, 429 with Retry-After, known or not', async () => {
    // Prepare
    const worker = await proWithAccount();
    const unknown = `nobody-${randomUUID()}@example.com`;
    const address = randomIp();
    for (let i = 0; i < 5; i++) {
      expect((await ask(worker.email, address)).status).toBe(200);
      expect((await ask(unknown, address)).status).toBe(200);
    }

    // Act
    const known = await ask(worker.email, address);
    const stranger = await ask(unknown, address);
    const elsewhere = await ask(worker.email, randomIp());

    // Assess: the same refusal either way; a sixth mail is not written
    for (const refused of [known, stranger]) {
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body.message).toMatch(/^Too many failed attempts\. Try again in \d+ minutes?\.$/);
    }
    expect(elsewhere.status).toBe(200);
    expect(await resetLinksOf('worker', worker.id)).toHaveLength(6);
  });

  it('refuses a malformed address with a message on its field', async () => {
    const res = await ask('not-an-address');

    expect(res).toMatchObject({ status: 400, body: { fields: { email: 'Enter a valid email address' } } });
  });
});
