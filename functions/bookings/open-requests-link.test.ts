import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/entities';
import { REQUESTS_LINK_GONE } from '../../shared/schemas/requests-link';
import { handler } from './open-requests-link';
import { handler as createBooking } from './create-booking';
import { handler as getInvoice } from '../payments/get-invoice';
import { handler as listRequests } from './list-requests';
import { dynamo, tableName } from '../common/clients';
import { customerEmailPut, customersRepo } from '../common/auth/customers';
import { hashSecret, newSecret } from '../common/auth/tokens';
import { invoiceForJob, invoicesRepo } from '../payments/data/invoices';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import { requestsLinksRepo } from './data/requests-links';
import { cardFeeRates } from '../common/env';
import { newId } from '../common/ids';
import { issuedCustomer } from '../testing/customers';
import { dispatchableWorker, testCategory, testJob } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withCookies, withPath } from '../testing/events';

const sample = sampleEvent('open-requests-link');
const now = () => new Date().toISOString();
const newAddress = () => `open-${crypto.randomUUID()}@example.com`;
const cookieOf = (customerId: string) => `customer_id=${customerId}`;
const cookieValue = (cookie: string) => /^customer_id=([A-Za-z0-9_-]{22});/.exec(cookie)?.[1];

/** A link for the address, and the secret of the browser that asked for it (its requests_link cookie). */
interface Link {
  secret: string;
  asking: string;
}

async function linkFor(email: string): Promise<Link> {
  const asking = newSecret();
  const { secret } = await requestsLinksRepo.create(email, asking);
  return { secret, asking };
}

/**
 * Opens a link in a browser holding `customerId`'s cookie (or none): the browser that asked for it,
 * unless `askedHere` is false.
 */
async function open(link: Link, customerId?: string, askedHere = true) {
  const cookies = [...(customerId ? [cookieOf(customerId)] : []), ...(askedHere ? [`requests_link=${link.asking}`] : [])];
  return invoke(handler, withCookies(withBody(sample, { token: link.secret }), cookies));
}

/** A request made by `customerId`, with `email` or none; the address noted as the create handlers note it. */
async function requestBy(customerId: string, email: string | null): Promise<JobItem> {
  const job = await testJob(testCategory(), null, { customerId, ...(email ? { customerEmail: email } : { customerEmail: undefined }) });
  if (email) await dynamo.send(new PutCommand(customerEmailPut(email, customerId).Put));
  return job;
}

/** A request made by `customerId` with `email`, worked, approved and invoiced, as the money calls leave it. */
async function invoicedRequestBy(customerId: string, email: string) {
  const worker = await dispatchableWorker(testCategory(), null);
  const job = await requestBy(customerId, email);
  await jobsRepo.addOffers(job, { [worker.id]: new Date(Date.now() + 120_000).toISOString() }, now());
  await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: worker.hourlyRate, now: now(), arriveBy: new Date(Date.now() + 60_000).toISOString() });
  await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now: now() });
  await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: now() });
  await jobsRepo.complete({ jobId: job.id, workerId: worker.id, now: now(), totalHours: 1 });
  const approved = await jobsRepo.recordVerification({ jobId: job.id, customerId, approved: true, notes: null, now: now() });
  const invoice = invoiceForJob(approved, worker, { id: newId(), laborHours: 1, materialsCents: 0, notes: null, feePercent: 10, cardFee: cardFeeRates(), now: now() });
  await invoicesRepo.create(invoice);
  return { job, invoice };
}

/** The ids of the requests the browser holding `customerId`'s cookie lists under Your Requests. */
async function listed(customerId: string): Promise<string[]> {
  const res = await invoke(listRequests, withCookies(sampleEvent('list-requests'), [cookieOf(customerId)]));
  return (res.body as { id: string }[]).map((r) => r.id).sort();
}

async function invoiceStatusFor(invoiceId: string, customerId: string): Promise<number> {
  return (await invoke(getInvoice, withCookies(withPath(sampleEvent('get-invoice'), { id: invoiceId }), [cookieOf(customerId)]))).status;
}

describe('POST /api/customer/requests-link/open: the link', () => {
  it('works once: opened again it answers 410 with what to do', async () => {
    // Prepare
    const email = newAddress();
    const { customerId } = await issuedCustomer();
    await requestBy(customerId, email);
    const link = await linkFor(email);

    // Act
    const first = await open(link);
    const second = await open(link);

    // Assess
    expect(first.status).toBe(200);
    expect(second.status).toBe(410);
    expect(second.body.message).toBe(REQUESTS_LINK_GONE);
  });

  it('opens once when opened twice at the same moment', async () => {
    // Prepare
    const email = newAddress();
    const { customerId } = await issuedCustomer();
    await requestBy(customerId, email);
    const link = await linkFor(email);

    // Act
    const answers = await Promise.all([open(link), open(link)]);

    // Assess
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
  });

  it('answers 410 for a link past its 15 minutes, and for one that never was', async () => {
    // Prepare
    const email = newAddress();
    const { customerId } = await issuedCustomer();
    await requestBy(customerId, email);
    const link = await linkFor(email);
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.requestsLink(hashSecret(link.secret)),
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );

    // Act
    const expired = await open(link);
    const unknown = await open({ secret: 'Qm9va2luZ3NBcmVNaW5lQW5kT25seU1pbmVUb1JlYWQ', asking: link.asking });

    // Assess
    expect(expired.status).toBe(410);
    expect(expired.body.message).toBe(REQUESTS_LINK_GONE);
    expect(unknown.status).toBe(410);
    expect(await listed(customerId)).toHaveLength(1);
  });
});

describe('POST /api/customer/requests-link/open: gathering', () => {
  it("keeps the browser's own items, gathers the address's from every identity, and moves nothing else", async () => {
    // Prepare: this browser (R) has a request of its own; another device (A) made one with the
    // address and was invoiced, and one without it; a stranger (S) typed the address once.
    const email = newAddress();
    const { customerId: browser } = await issuedCustomer();
    const { customerId: otherDevice } = await issuedCustomer();
    const { customerId: stranger } = await issuedCustomer();
    const own = await requestBy(browser, null);
    const { job: withAddress, invoice } = await invoicedRequestBy(otherDevice, email);
    const otherDevicesOwn = await requestBy(otherDevice, 'someone-else@example.com');
    const typedByStranger = await requestBy(stranger, email);
    const strangersOwn = await requestBy(stranger, null);
    const link = await linkFor(email);

    // Act
    const res = await open(link, browser);

    // Assess: the browser is the address's identity now, with all of it
    expect(res.status).toBe(200);
    expect(cookieValue(res.cookies[0]!)).toBe(browser);
    expect(res.cookies[0]).toMatch(/^customer_id=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=\d+; SameSite=Lax; HttpOnly$/);
    expect(res.body.gathered).toEqual({ requests: 2, bookings: 0, invoices: 1 });
    expect(res.body.requests.map((r: { id: string }) => r.id).sort()).toEqual([own.id, withAddress.id, typedByStranger.id].sort());
    expect(await listed(browser)).toEqual([own.id, withAddress.id, typedByStranger.id].sort());
    expect(await invoiceStatusFor(invoice.id, browser)).toBe(200);
    // The others keep what they made without the address, and gain nothing
    expect(await listed(otherDevice)).toEqual([otherDevicesOwn.id]);
    expect(await invoiceStatusFor(invoice.id, otherDevice)).toBe(404);
    expect(await listed(stranger)).toEqual([strangersOwn.id]);
    expect(await customersRepo.resolve(stranger)).toBe(stranger);
  });

  it('gathers a booking made at /book with the address, with its job', async () => {
    // Prepare: another device booked with the address
    const email = newAddress();
    const { customerId: otherDevice } = await issuedCustomer();
    const { customerId: browser } = await issuedCustomer();
    const bookingSample = sampleEvent('create-booking');
    const booked = await invoke(
      createBooking,
      withCookies(withBody(bookingSample, { ...JSON.parse(bookingSample.body!), email }), [cookieOf(otherDevice)]),
    );
    expect(booked.status).toBe(201);

    // Act
    const res = await open(await linkFor(email), browser);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.gathered).toMatchObject({ requests: 1, bookings: 1 });
    expect(res.body.requests).toHaveLength(1);
    expect(res.body.requests[0].number).toBe(booked.body.id.slice(-8).toUpperCase());
    expect(await listed(otherDevice)).toEqual([]);
  });

  it("gathers a later browser into the first one that proved the address, which keeps everything", async () => {
    // Prepare: the first device made a request with the address and opened a link there
    const email = newAddress();
    const { customerId: first } = await issuedCustomer();
    const { customerId: second } = await issuedCustomer();
    const { job: withAddress, invoice } = await invoicedRequestBy(first, email);
    expect((await open(await linkFor(email), first)).status).toBe(200);
    const secondsOwn = await requestBy(second, null);

    // Act: the second device opens a link of its own
    const res = await open(await linkFor(email), second);

    // Assess: one identity for the address, in both browsers, with both devices' requests
    expect(res.status).toBe(200);
    expect(cookieValue(res.cookies[0]!)).toBe(first);
    expect(await listed(first)).toEqual([withAddress.id, secondsOwn.id].sort());
    expect(await invoiceStatusFor(invoice.id, first)).toBe(200);
    // Another tab still holding the second device's old cookie acts as the address's identity too
    expect(await customersRepo.resolve(second)).toBe(first);
    expect(await listed(second)).toEqual([withAddress.id, secondsOwn.id].sort());
  });

  it("never lets a stranger's identity that typed the address first become the address's", async () => {
    // Prepare: a stranger typed the address before its owner ever used it
    const email = newAddress();
    const { customerId: stranger } = await issuedCustomer();
    const { customerId: owner } = await issuedCustomer();
    const strangersOwn = await requestBy(stranger, null);
    const typedByStranger = await requestBy(stranger, email);
    const ownersRequest = await requestBy(owner, email);

    // Act: the owner opens a link in a browser with no cookie at all
    const res = await open(await linkFor(email));

    // Assess: a new identity for the address; the stranger sees none of the owner's
    const gatheredTo = cookieValue(res.cookies[0]!)!;
    expect(res.status).toBe(200);
    expect([stranger, owner]).not.toContain(gatheredTo);
    expect(await listed(gatheredTo)).toEqual([typedByStranger.id, ownersRequest.id].sort());
    expect(await listed(stranger)).toEqual([strangersOwn.id]);
  });

  it('gives a browser whose cookie the server never issued a new identity, never the id it made up', async () => {
    // Prepare
    const email = newAddress();
    const { customerId: otherDevice } = await issuedCustomer();
    const made = await requestBy(otherDevice, email);
    const madeUp = newId();

    // Act
    const res = await open(await linkFor(email), madeUp);

    // Assess
    const gatheredTo = cookieValue(res.cookies[0]!)!;
    expect(res.status).toBe(200);
    expect(gatheredTo).not.toBe(madeUp);
    expect(await listed(gatheredTo)).toEqual([made.id]);
    expect(await customersRepo.resolve(madeUp)).toBeUndefined();
  });

  it('moves nothing twice: a second link finds everything where the first left it', async () => {
    // Prepare
    const email = newAddress();
    const { customerId: browser } = await issuedCustomer();
    const { customerId: otherDevice } = await issuedCustomer();
    const made = await requestBy(otherDevice, email);
    await open(await linkFor(email), browser);

    // Act
    const again = await open(await linkFor(email), browser);

    // Assess
    expect(again.status).toBe(200);
    expect(again.body.gathered).toEqual({ requests: 0, bookings: 0, invoices: 0 });
    expect(await listed(browser)).toEqual([made.id]);
  });
});

describe('POST /api/customer/requests-link/open: a browser that did not ask for the link', () => {
  it("stays as it was: someone who got it to open their link sees neither its earlier requests nor its next one", async () => {
    // Prepare: the sender's browser proved their own address; the victim's browser has a request of its own
    const sendersAddress = newAddress();
    const { customerId: sender } = await issuedCustomer();
    const { customerId: victim } = await issuedCustomer();
    const sendersRequest = await requestBy(sender, sendersAddress);
    expect((await open(await linkFor(sendersAddress), sender)).status).toBe(200);
    const victimsEarlier = await requestBy(victim, 'victim@example.com');

    // Act: the sender asks for a link to their address and gets the victim to open it; the victim then makes a request
    const res = await open(await linkFor(sendersAddress), victim, false);
    const victimsLater = await requestBy(victim, 'victim@example.com');

    // Assess: no cookie changes hands, the sender's requests are only shown, the victim's stay the victim's
    expect(res.status).toBe(200);
    expect(res.cookies).toEqual([]);
    expect(res.body.here).toBe(false);
    expect(res.body.requests).toEqual([expect.objectContaining({ id: sendersRequest.id, place: sendersRequest.address.split(',')[0] })]);
    expect(await customersRepo.resolve(victim)).toBe(victim);
    expect(await listed(victim)).toEqual([victimsEarlier.id, victimsLater.id].sort());
    expect(await listed(sender)).toEqual([sendersRequest.id]);
  });

  it('moves nothing and makes no identity the address\'s: only a browser that asked for a link does', async () => {
    // Prepare: another device made a request with the address; nobody proved the address yet
    const email = newAddress();
    const { customerId: otherDevice } = await issuedCustomer();
    const { customerId: openerBrowser } = await issuedCustomer();
    const made = await requestBy(otherDevice, email);
    const openersOwn = await requestBy(openerBrowser, null);

    // Act
    const res = await open(await linkFor(email), openerBrowser, false);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.requests.map((r: { id: string }) => r.id)).toEqual([made.id]);
    expect(await listed(otherDevice)).toEqual([made.id]);
    expect(await listed(openerBrowser)).toEqual([openersOwn.id]);
    expect(await requestsLinksRepo.account(email)).toBeUndefined();
  });

  it('shows the address\'s requests by street line and date, without the name, phone or email they were made with', async () => {
    // Prepare
    const email = newAddress();
    const { customerId: otherDevice } = await issuedCustomer();
    const made = await requestBy(otherDevice, email);

    // Act
    const res = await open(await linkFor(email), undefined, false);

    // Assess
    expect(res.body.requests).toEqual([{ id: made.id, service: made.service, number: made.id.slice(-8).toUpperCase(), place: made.address.split(',')[0], createdAt: made.createdAt }]);
    expect(JSON.stringify(res.body)).not.toContain(made.customerPhone);
    expect(JSON.stringify(res.body)).not.toContain(email);
  });
});
