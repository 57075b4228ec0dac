import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/entities';
import { REQUESTS_LINK_GONE } from '../../shared/schemas/requests-link';
import { handler, REQUESTS_LINK_PREVIEW_LIMIT } from './preview-requests-link';
import { handler as openLink } from './open-requests-link';
import { dynamo, tableName } from '../common/clients';
import { customerEmailPut } from '../common/auth/customers';
import { hashSecret, newSecret } from '../common/auth/tokens';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import { requestsLinksRepo } from './data/requests-links';
import { issuedCustomer } from '../testing/customers';
import { testCategory, testJob } from '../testing/dispatch';
import { fromAddress, invoke, sampleEvent, withBody, withCookies } from '../testing/events';

const sample = sampleEvent('preview-requests-link');
const newAddress = () => `preview-${crypto.randomUUID()}@example.com`;
/** A network address of this test's own, so its counter starts empty whatever ran before. */
const ownNetwork = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

interface Link {
  secret: string;
  asking: string;
}

async function linkFor(email: string): Promise<Link> {
  const asking = newSecret();
  const { secret } = await requestsLinksRepo.create(email, asking);
  return { secret, asking };
}

/** Previews a link from a browser with `cookies`, from a network of its own unless one is given. */
function preview(secret: string, cookies: string[] = [], network = ownNetwork()) {
  return invoke(handler, fromAddress(withCookies(withBody(sample, { token: secret }), cookies), network));
}

async function requestBy(customerId: string, email: string | null, address = '12 Alder Lane, Springfield, IL'): Promise<JobItem> {
  const job = await testJob(testCategory(), null, { customerId, address, ...(email ? { customerEmail: email } : { customerEmail: undefined }) });
  if (email) await dynamo.send(new PutCommand(customerEmailPut(email, customerId).Put));
  return job;
}

describe('POST /api/customer/requests-link/preview', () => {
  it("lists the address's requests by street line and date, newest first, and nobody's phone or name", async () => {
    // Prepare: two devices made requests with the address; one device also made one without it
    const email = newAddress();
    const { customerId: laptop } = await issuedCustomer();
    const { customerId: phone } = await issuedCustomer();
    const older = await requestBy(laptop, email, '12 Alder Lane, Springfield, IL');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const newer = await requestBy(phone, email, '40 Birch Road, Springfield, IL');
    await requestBy(laptop, null, '9 Private Court, Elsewhere');
    const link = await linkFor(email);

    // Act
    const res = await preview(link.secret, [`requests_link=${link.asking}`]);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      email,
      askedHere: true,
      requests: [
        { service: newer.service, number: newer.id.slice(-8).toUpperCase(), place: '40 Birch Road', createdAt: newer.createdAt },
        { service: older.service, number: older.id.slice(-8).toUpperCase(), place: '12 Alder Lane', createdAt: older.createdAt },
      ],
    });
    expect(JSON.stringify(res.body)).not.toMatch(new RegExp(`${older.customerPhone}|${older.customerName}|${older.id}`));
  });

  it('says whether this browser asked for the link', async () => {
    // Prepare
    const email = newAddress();
    const { customerId } = await issuedCustomer();
    await requestBy(customerId, email);
    const link = await linkFor(email);

    // Act
    const elsewhere = await preview(link.secret, [`customer_id=${customerId}`]);
    const otherAsker = await preview(link.secret, [`requests_link=${newSecret()}`]);

    // Assess
    expect(elsewhere.body.askedHere).toBe(false);
    expect(otherAsker.body.askedHere).toBe(false);
  });

  it('spends nothing: the link still opens afterwards', async () => {
    // Prepare
    const email = newAddress();
    const { customerId: otherDevice } = await issuedCustomer();
    const made = await requestBy(otherDevice, email);
    const link = await linkFor(email);

    // Act
    const first = await preview(link.secret);
    const second = await preview(link.secret);
    const opened = await invoke(openLink, withCookies(withBody(sampleEvent('open-requests-link'), { token: link.secret }), [`requests_link=${link.asking}`]));

    // Assess: the previews left the link to open
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.cookies).toEqual([]);
    expect(opened.status).toBe(200);
    expect(opened.body.requests.map((r: { id: string }) => r.id)).toEqual([made.id]);
  });

  it('moves nothing and makes no identity the address\'s', async () => {
    // Prepare
    const email = newAddress();
    const { customerId: otherDevice } = await issuedCustomer();
    const made = await requestBy(otherDevice, email);
    const link = await linkFor(email);

    // Act
    await preview(link.secret, [`requests_link=${link.asking}`]);

    // Assess
    expect((await jobsRepo.findById(made.id))?.customerId).toBe(otherDevice);
    expect(await requestsLinksRepo.account(email)).toBeUndefined();
  });

  it('answers 410 with what to do for a used link, an expired one and one that never was', async () => {
    // Prepare
    const email = newAddress();
    const { customerId } = await issuedCustomer();
    await requestBy(customerId, email);
    const used = await linkFor(email);
    await requestsLinksRepo.consume(used.secret, used.asking);
    const expired = await linkFor(email);
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.requestsLink(hashSecret(expired.secret)),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );

    // Act
    const answers = await Promise.all([used, expired, { secret: newSecret() }].map((link) => preview(link.secret)));

    // Assess
    expect(answers.map((a) => a.status)).toEqual([410, 410, 410]);
    for (const answer of answers) expect(answer.body.message).toBe(REQUESTS_LINK_GONE);
  });

  it('refuses reading past the limit from one connection with 429 and Retry-After', async () => {
    // Prepare
    const email = newAddress();
    const { customerId } = await issuedCustomer();
    await requestBy(customerId, email);
    const link = await linkFor(email);
    const network = ownNetwork();
    for (let i = 0; i < REQUESTS_LINK_PREVIEW_LIMIT; i++) expect((await preview(newSecret(), [], network)).status).toBe(410);

    // Act
    const refused = await preview(link.secret, [], network);
    const elsewhere = await preview(link.secret);

    // Assess
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/^Too many links were opened from this connection\. Try again in \d+ minutes?\.$/);
    expect(elsewhere.status).toBe(200);
  });

  it('refuses a token that is not one with 400, saying what to do', async () => {
    // Act
    const res = await invoke(handler, fromAddress(withBody(sample, { token: 'short' }), ownNetwork()));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Open it from the mail again, or send a new link/);
  });
});
