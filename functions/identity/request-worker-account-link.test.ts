import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/entities';
import { handler as createAccount } from './create-worker-account';
import { hashPassword } from '../common/auth/passwords';
import { dynamo, tableName } from '../common/clients';
import type { WorkerAccountItem } from '../workers/data/workers';
import { accountTokenIn } from '../testing/account-links';
import { asOwner, pendingApplication } from '../testing/applications';
import { fromAddress, invoke, sampleEvent, withBody } from '../testing/events';
import { mailsTo, outboxMailsTo, outboxRecord } from '../testing/mail';
import { createTestWorker } from '../testing/workers';
import { handler as rejectWorker } from '../applications/reject-worker';
import { ACCOUNT_LINK_REQUESTED, handler } from './request-worker-account-link';
import { handler as sendMail } from '../mail/send-mail';

const sample = sampleEvent('request-worker-account-link');

const randomIp = () => `10.6.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

const ask = (email: string, address = randomIp()) => invoke(handler, fromAddress(withBody(sample, { email }), address));

/** Hands the newest requested link's mail to the sender and reads it back as the applicant receives it. */
async function deliveredLink(email: string) {
  const [mail] = (await outboxMailsTo('worker-account-link', email)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  expect(mail, 'a link mail in the outbox').toBeDefined();
  await sendMail({ Records: [await outboxRecord('worker-account-link', mail!.subjectId)] });
  return (await mailsTo(email)).filter((m) => m.subject === 'Your link to set up your Fixly pro account').at(-1);
}

describe('POST /api/workers/account-link', () => {
  it('mails an approved applicant a single-use link that makes their account', async () => {
    // Prepare
    const worker = await createTestWorker({ fullName: 'Maria Lopez' });

    // Act: asked with the address as the applicant types it
    const res = await ask(`  ${worker.email.toUpperCase()} `);
    const mail = await deliveredLink(worker.email);

    // Assess
    expect(res).toMatchObject({ status: 200, body: { message: ACCOUNT_LINK_REQUESTED } });
    expect(mail!.text).toContain('Hi Maria Lopez,');
    expect(mail!.text).toContain('works once, for 60 minutes');
    expect(mail!.text).toMatch(/Create your worker account: http:\/\/localhost:3000\/worker\/signup#token=[A-Za-z0-9_-]{43}\n/);
    const made = await invoke(
      createAccount,
      fromAddress(withBody(sampleEvent('create-worker-account'), { token: accountTokenIn(mail!.text), password: 'correct-horse-42', confirmPassword: 'correct-horse-42' }), randomIp()),
    );
    expect(made).toMatchObject({ status: 201, body: { worker: { id: worker.id } } });
  });

  it('mails an applicant still under review too', async () => {
    const { body } = await pendingApplication();

    expect((await ask(body.emailAddress)).status).toBe(200);

    expect(await outboxMailsTo('worker-account-link', body.emailAddress)).toHaveLength(1);
  });

  it('tells the mailbox when an account already exists for the address: the link replaces its password', async () => {
    // Prepare: an account someone made without the mailbox
    const worker = await createTestWorker({ hasAccount: true });
    const account: WorkerAccountItem = {
      ...keys.workerAccount(worker.id),
      entity: 'worker-account',
      workerId: worker.id,
      passwordHash: await hashPassword('someone-elses-pass-1'),
      createdAt: new Date().toISOString(),
    };
    await dynamo.send(new PutCommand({ TableName: tableName, Item: account }));

    // Act
    await ask(worker.email);
    const mail = await deliveredLink(worker.email);

    // Assess
    expect(mail!.text).toContain('An account already exists for it: choosing a password with the link below replaces the old one and signs every device out.');
    expect(mail!.text).toMatch(/Set your password: http:\/\/localhost:3000\/worker\/signup#token=/);
  });

  it('answers an address nobody applied with, or whose application was rejected, the same way, and mails nothing', async () => {
    // Prepare
    const nobody = `nobody-${randomUUID()}@example.com`;
    const rejected = await pendingApplication();
    await invoke(rejectWorker, await asOwner('reject-worker', { id: rejected.id }));

    // Act
    const answers = [await ask(nobody), await ask(rejected.body.emailAddress)];

    // Assess
    for (const res of answers) expect(res).toMatchObject({ status: 200, body: { message: ACCOUNT_LINK_REQUESTED } });
    expect(await outboxMailsTo('worker-account-link', nobody)).toEqual([]);
    expect(await outboxMailsTo('worker-account-link', rejected.body.emailAddress)).toEqual([]);
  });

  it('counts requests like logins: past 5 for one address from one connection, 429 with Retry-After, known or not', async () => {
    // Prepare
    const worker = await createTestWorker();
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

    // Assess: the same refusal either way; a sixth mail from that connection is not written
    for (const refused of [known, stranger]) {
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body.message).toMatch(/^Too many failed attempts\. Try again in \d+ minutes?\.$/);
    }
    expect(elsewhere.status).toBe(200);
    expect(await outboxMailsTo('worker-account-link', worker.email)).toHaveLength(6);
  });

  it('refuses a malformed address with a message on its field', async () => {
    const res = await ask('not-an-address');

    expect(res).toMatchObject({ status: 400, body: { fields: { email: 'Enter a valid email address' } } });
  });
});
