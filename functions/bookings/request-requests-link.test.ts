import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { REQUESTS_LINK_SENT } from '../../shared/schemas/requests-link';
import { handler as openLink } from './open-requests-link';
import { handler, REQUESTS_LINK_LIMITS } from './request-requests-link';
import { dynamo } from '../common/clients';
import { customerEmailPut } from '../common/auth/customers';
import { issuedCustomer } from '../testing/customers';
import { fromAddress, invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { mailsTo, outboxMailsTo, outboxRecord } from '../testing/mail';
import { handler as sendMail } from '../mail/send-mail';

const sample = sampleEvent('request-requests-link');
const openSample = sampleEvent('open-requests-link');

/** A network address of this test's own, so its counters start empty whatever ran before. */
const ownNetwork = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const newAddress = () => `find-${crypto.randomUUID()}@example.com`;
const ask = (email: string, network = ownNetwork()) => invoke(handler, fromAddress(withBody(sample, { email }), network));

/** An address some customer identity made a request with. */
async function knownAddress(): Promise<string> {
  const email = newAddress();
  const { customerId } = await issuedCustomer();
  await dynamo.send(new PutCommand(customerEmailPut(email, customerId).Put));
  return email;
}

const outboxTo = (to: string) => outboxMailsTo('requests-link', to);

describe('POST /api/customer/requests-link', () => {
  it('mails a known address one link, once however often the mail is delivered, and the link opens its requests', async () => {
    // Prepare
    const email = await knownAddress();

    // Act
    const res = await ask(email);
    const [queued] = await outboxTo(email);
    const record = await outboxRecord('requests-link', queued!.subjectId);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: REQUESTS_LINK_SENT });
    expect(res.cookies).toHaveLength(1);
    expect(res.cookies[0]).toMatch(/^requests_link=[A-Za-z0-9_-]{43}; Path=\/api\/customer\/requests-link; Max-Age=900; SameSite=Lax; HttpOnly$/);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Your link to your Fixly requests');
    expect(mails[0]!.text).toContain('works once, for 15 minutes');
    const link = /Show my requests: (http:\/\/localhost:3000\/find-my-requests\/open#token=([A-Za-z0-9_-]{43}))/.exec(mails[0]!.text ?? '');
    expect(link).not.toBeNull();
    // The subject names the link by its id, never by its secret; the sent mail keeps no link.
    expect(queued!.subjectId).not.toBe(link![2]!);
    const sent = (await outboxTo(email))[0]!;
    expect(sent.state).toBe('sent');
    expect(sent.action).toBeUndefined();
    const opened = await invoke(openLink, withCookies(withBody(openSample, { token: link![2]! }), [res.cookies[0]!.split(';')[0]!]));
    expect(opened.status).toBe(200);
    expect(opened.body.here).toBe(true);
  });

  it('gives an unknown address the same answer and sends nothing', async () => {
    // Prepare
    const email = newAddress();

    // Act
    const res = await ask(email);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: REQUESTS_LINK_SENT });
    expect(res.cookies[0]).toMatch(/^requests_link=[A-Za-z0-9_-]{43};/);
    expect(await outboxTo(email)).toEqual([]);
  });

  it('sends a new link each time it is asked, each its own mail', async () => {
    // Prepare
    const email = await knownAddress();
    const network = ownNetwork();

    // Act
    await ask(email, network);
    await ask(email, network);

    // Assess
    const queued = await outboxTo(email);
    expect(queued).toHaveLength(2);
    expect(new Set(queued.map((m) => m.subjectId)).size).toBe(2);
  });

  it('refuses asking past the limit with 429 and Retry-After, known address or not', async () => {
    for (const email of [await knownAddress(), newAddress()]) {
      // Prepare
      const network = ownNetwork();
      for (let i = 0; i < REQUESTS_LINK_LIMITS.pair; i++) expect((await ask(email, network)).status).toBe(200);

      // Act
      const refused = await ask(email, network);

      // Assess
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^Too many links were asked for\. Try again in \d+ minutes?\.$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('refuses a malformed address with 400, naming the field', async () => {
    // Act
    const res = await ask('not-an-address');

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields.email).toBe('Enter the email address you used for your requests');
  });
});
