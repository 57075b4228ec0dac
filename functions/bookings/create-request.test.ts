import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { customerEmailEntity } from '../../shared/entities';
import { dynamo, tableName } from '../common/clients';
import { requestNumber } from '../../shared/schemas/request';
import { DEFAULT_PLATFORM_FEE_PERCENT } from '../../shared/constants';
import { estimateDefaults, estimateJob, REQUESTED_TIME_MESSAGE } from '../../shared/domain/estimate';
import { WORKER_COUNT_MESSAGE, ZONED_TIME_MESSAGE } from '../../shared/schemas/estimate';
import { handler } from './create-request';
import { jobsRepo } from '../jobs/data/jobs';
import { timerNames } from '../jobs/dispatch';
import { issuedCustomer } from '../testing/customers';
import { dispatchableWorker, findSchedule, north, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { mailsTo, outboxRecord } from '../testing/mail';
import { handler as sendMail } from '../mail/send-mail';

const sample = sampleEvent('create-request');
const validBody = JSON.parse(sample.body!) as Record<string, unknown>;

/** A known customer (one the server issued), so a test can find (or prove the absence of) what was filed under them. */
async function asCustomer(body: unknown) {
  const { customerId, cookie } = await issuedCustomer();
  return { customerId, event: withCookies(withBody(sample, body), [cookie]) };
}

const cookieValue = (cookie: string) => /^customer_id=([A-Za-z0-9_-]{22});/.exec(cookie)?.[1];

describe('POST /api/requests', () => {
  it('answers 201 with the request as its customer sees it, Pending, numbered by its last 8 characters', async () => {
    // Prepare
    const { event } = await asCustomer(validBody);

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const { request } = res.body;
    expect(request).toMatchObject({
      name: validBody.name,
      email: validBody.email,
      phoneNumber: validBody.phoneNumber,
      service: 'Plumbing',
      location: validBody.location,
      description: validBody.description,
      status: 'Pending',
      reassigned: false,
      worker: null,
      customerType: 'individual',
      workerCount: 1,
    });
    expect(request.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(requestNumber(request.id)).toHaveLength(8);
    expect(requestNumber(request.id)).toBe(request.id.slice(-8).toUpperCase());
    expect(request).not.toHaveProperty('customerId');
    expect(Date.parse(request.createdAt)).not.toBeNaN();
  });

  it('sets the customer cookie on the first request and files the job under it', async () => {
    // Act
    const res = await invoke(handler, sample);

    // Assess
    expect(res.status).toBe(201);
    expect(res.cookies).toHaveLength(1);
    expect(res.cookies[0]).toMatch(/^customer_id=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=\d+; SameSite=Lax; HttpOnly$/);
    const customerId = cookieValue(res.cookies[0]!)!;
    expect((await jobsRepo.findById(res.body.request.id))?.customerId).toBe(customerId);
  });

  it('sets no cookie on a second request and files both under the same customer', async () => {
    // Prepare
    const first = await invoke(handler, sample);
    const customerId = cookieValue(first.cookies[0]!)!;

    // Act
    const second = await invoke(handler, withCookies(sample, [`customer_id=${customerId}`]));

    // Assess
    expect(second.status).toBe(201);
    expect(second.cookies).toEqual([]);
    const filed = await jobsRepo.listForCustomer(customerId);
    expect(filed.map((j) => j.id).sort()).toEqual([first.body.request.id, second.body.request.id].sort());
  });

  it('stores the job as a request of the category the service maps to, with its coordinates', async () => {
    // Prepare
    const place = testPlace();
    const { customerId, event } = await asCustomer({
      ...validBody,
      service: 'Pool Repair/Cleaner',
      clientLatitude: place.lat,
      clientLongitude: place.lng,
      gpsEnabled: true,
    });

    // Act
    const res = await invoke(handler, event);

    // Assess
    const job = await jobsRepo.findById(res.body.request.id);
    expect(job).toMatchObject({
      kind: 'request',
      customerId,
      category: 'cleaning',
      service: 'Pool Repair/Cleaner',
      customerName: validBody.name,
      customerPhone: validBody.phoneNumber,
      customerEmail: validBody.email,
      address: validBody.location,
      description: validBody.description,
      latitude: place.lat,
      longitude: place.lng,
      gpsEnabled: true,
      bookingId: null,
      preferredWorkerId: null,
    });
    expect(['booked', 'offered']).toContain(job?.state);
  });

  it('treats coordinates 0/0 as unknown: stored as null', async () => {
    // Prepare
    const { event } = await asCustomer({ ...validBody, clientLatitude: 0, clientLongitude: 0, gpsEnabled: false });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    const job = await jobsRepo.findById(res.body.request.id);
    expect(job).toMatchObject({ latitude: null, longitude: null, gpsEnabled: false });
  });

  it('offers the job at once to the nearest dispatchable worker of the category, with an expiry timer', async () => {
    // Prepare: a random place, where the only plumbers within reach are these two.
    const place = testPlace();
    const far = await dispatchableWorker('plumbing', north(place, 3));
    const near = await dispatchableWorker('plumbing', north(place, 0.3));
    const { event } = await asCustomer({ ...validBody, service: 'Plumbing', clientLatitude: place.lat, clientLongitude: place.lng });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.request).toMatchObject({ status: 'Pending', jobState: 'offered', dispatch: 'searching' });
    const job = await jobsRepo.findById(res.body.request.id);
    expect(job?.state).toBe('offered');
    expect(job?.tried.slice(0, 2)).toEqual([near.id, far.id]);
    expect(Date.parse(job!.offers[near.id]!)).toBeGreaterThan(Date.now());
    const timer = await findSchedule(timerNames.offer(job!.id, near.id));
    expect(timer?.Target?.Arn).toMatch(/:function:expire-offer$/);
    expect(JSON.parse(timer!.Target!.Input!)).toEqual({ jobId: job!.id, workerId: near.id });
  });

  it('files a request without a location as Pending, whether dispatch found someone or says nobody is available', async () => {
    // Prepare: no location, so any plumber on call anywhere (other tests') may be offered it: assert only what is ours.
    const { customerId, event } = await asCustomer({ ...validBody, clientLatitude: 0, clientLongitude: 0 });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.request.status).toBe('Pending');
    expect(['searching', 'no_worker_available']).toContain(res.body.request.dispatch);
    expect((await jobsRepo.listForCustomer(customerId)).map((j) => j.id)).toEqual([res.body.request.id]);
  });

  it.each([
    ['name', undefined, 'Name is required'],
    ['email', 'not-an-email', 'Please enter a valid email address'],
    ['description', 'Leaks', 'Please describe the problem in at least 10 characters'],
    ['service', 'Astrology', 'Please choose a service'],
    ['clientLatitude', 91, 'Latitude must be between -90 and 90'],
  ])('refuses %s = %j with "%s" and writes nothing', async (field, value, message) => {
    // Prepare
    const body: Record<string, unknown> = { ...validBody, [field]: value };
    if (value === undefined) delete body[field];
    const { customerId, event } = await asCustomer(body);

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'ValidationError', message, fields: { [field]: message } });
    expect(res.cookies).toEqual([]);
    expect(await jobsRepo.listForCustomer(customerId)).toEqual([]);
  });

  it('refuses unknown fields by name, so a client cannot set the status or owner, and writes nothing', async () => {
    // Prepare
    const { customerId, event } = await asCustomer({ ...validBody, status: 'Completed' });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ _: 'Unknown field: status' });
    expect(await jobsRepo.listForCustomer(customerId)).toEqual([]);
  });

  it('answers a submission sent again with the same Idempotency-Key with the request it made, and makes one job', async () => {
    // Prepare
    const { customerId, cookie } = await issuedCustomer();
    const event = withCookies({ ...sample, headers: { ...sample.headers, 'idempotency-key': crypto.randomUUID() } }, [cookie]);

    // Act
    const first = await invoke(handler, event);
    const again = await invoke(handler, event);

    // Assess
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.request.id).toBe(first.body.request.id);
    expect(await jobsRepo.listForCustomer(customerId)).toHaveLength(1);
  });
});

describe('POST /api/requests: the mail', () => {
  it('mails the customer once that the request was received, with its tracking page, even when sent twice', async () => {
    // Prepare: an address of its own, and the same submission sent twice (the same Idempotency-Key)
    const email = `req-${crypto.randomUUID()}@example.com`;
    const { cookie } = await issuedCustomer();
    const event = withCookies({ ...withBody(sample, { ...validBody, email }), headers: { ...sample.headers, 'idempotency-key': crypto.randomUUID() } }, [cookie]);
    const first = await invoke(handler, event);
    await invoke(handler, event);
    const record = await outboxRecord('request-received', first.body.request.id);

    // Act: the table's stream hands the mail over, and delivers it a second time
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('We received your Plumbing request');
    expect(mails[0]!.text).toContain(`Its number is ${first.body.request.number}.`);
    expect(mails[0]!.text).toContain(`Track your request: http://localhost:3000/track#id=${first.body.request.id}`);
  });

  it('mails a crew request once, from the request the customer follows', async () => {
    const email = `crew-${crypto.randomUUID()}@example.com`;
    const { event } = await asCustomer({ ...validBody, email, workerCount: 2 });

    const res = await invoke(handler, event);
    await sendMail({ Records: [await outboxRecord('request-received', res.body.request.id)] });

    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('2 pros');
  });

  it("records that this customer used the address, with the request (the lead's, for a crew)", async () => {
    // Prepare
    const email = `found-${crypto.randomUUID()}@example.com`;
    const { customerId, event } = await asCustomer({ ...validBody, email, workerCount: 2 });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: customerEmailEntity.key(email, customerId), ConsistentRead: true }));
    expect(out.Item).toMatchObject({ entity: 'customer-email', email, customerId });
  });
});

describe('POST /api/requests: the price and the time', () => {
  const HOUR = 60 * 60 * 1000;

  it('stores the estimate the server computed at the nearby pros rate and the requested time, ignoring the client baseAmount', async () => {
    // Prepare: five plumbers at a place of this test's own, all at $40 an hour
    const place = testPlace();
    await Promise.all([1, 2, 3, 4, 5].map((i) => dispatchableWorker('plumbing', north(place, 0.1 * i), { hourlyRate: 4000 })));
    const tomorrowNine = new Date(Date.now() + 24 * HOUR).toISOString();
    const body = { ...validBody, clientLatitude: place.lat, clientLongitude: place.lng, requestedTime: tomorrowNine, jobSize: 'small', baseAmount: 1 };
    const { event } = await asCustomer(body);

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    const expected = estimateJob({ category: 'plumbing', size: 'small', hourlyRateCents: 4000, asap: false }, { feePercent: DEFAULT_PLATFORM_FEE_PERCENT, ...estimateDefaults });
    expect(res.body.request).toMatchObject({ requestedTime: tomorrowNine, estimate: expected });
    const stored = await jobsRepo.findById(res.body.request.id);
    expect(stored).toMatchObject({ requestedTime: tomorrowNine, estimate: expected });
  });

  it('stores no requested time for as soon as possible, and a rush fee in the estimate', async () => {
    // Prepare
    const place = testPlace();
    await Promise.all([1, 2, 3, 4, 5].map((i) => dispatchableWorker('plumbing', north(place, 0.1 * i), { hourlyRate: 5000 })));
    const { event } = await asCustomer({ ...validBody, clientLatitude: place.lat, clientLongitude: place.lng });

    // Act
    const res = await invoke(handler, event);

    // Assess: an older client sends no size, so the job is priced as medium
    expect(res.status).toBe(201);
    expect(res.body.request.requestedTime).toBeNull();
    expect(res.body.request.estimate).toEqual(
      estimateJob({ category: 'plumbing', size: 'medium', hourlyRateCents: 5000, asap: true }, { feePercent: DEFAULT_PLATFORM_FEE_PERCENT, ...estimateDefaults }),
    );
  });

  it('refuses a time in the past or beyond 14 days, saying what to choose, and writes nothing', async () => {
    for (const requestedTime of [new Date(Date.now() - HOUR).toISOString(), new Date(Date.now() + 15 * 24 * HOUR).toISOString()]) {
      // Prepare
      const { customerId, event } = await asCustomer({ ...validBody, requestedTime });

      // Act
      const res = await invoke(handler, event);

      // Assess
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(REQUESTED_TIME_MESSAGE);
      expect(await jobsRepo.listForCustomer(customerId)).toHaveLength(0);
    }
  });

  it('refuses a time without its time zone on its field, and writes nothing', async () => {
    // Prepare: tomorrow at ten, as a clock on the wall says it, with no zone to place it
    const wallClock = new Date(Date.now() + 24 * HOUR).toISOString().slice(0, 11) + '10:00:00';
    const { customerId, event } = await asCustomer({ ...validBody, requestedTime: wallClock });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields.requestedTime).toBe(ZONED_TIME_MESSAGE);
    expect(await jobsRepo.listForCustomer(customerId)).toHaveLength(0);
  });
});

describe('POST /api/requests: more than one pro', () => {
  it('makes a crew of three jobs sharing the crew estimate, listing only the request', async () => {
    // Prepare
    const place = testPlace();
    await Promise.all([1, 2, 3, 4, 5].map((i) => dispatchableWorker('plumbing', north(place, 0.1 * i), { hourlyRate: 4000 })));
    const { customerId, event } = await asCustomer({ ...validBody, clientLatitude: place.lat, clientLongitude: place.lng, jobSize: 'small', workerCount: 3 });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    const expected = estimateJob({ category: 'plumbing', size: 'small', hourlyRateCents: 4000, asap: true, workerCount: 3 }, { feePercent: DEFAULT_PLATFORM_FEE_PERCENT, ...estimateDefaults });
    expect(res.body.request).toMatchObject({ workerCount: 3, estimate: expected, crewLeadId: null });
    expect(res.body.request.crew).toHaveLength(3);
    const lead = (await jobsRepo.findById(res.body.request.id))!;
    const jobs = await jobsRepo.findMany(lead.crew!.jobIds);
    expect(jobs).toHaveLength(3);
    for (const job of jobs) expect(job).toMatchObject({ customerId, workerCount: 3, estimate: expected, crew: { leadId: lead.id, size: 3 } });
    expect((await jobsRepo.listForCustomer(customerId)).map((j) => j.id)).toEqual([lead.id]);
  });

  it.each([0, 6, 2.5])('refuses %s pros with 400 saying how many to choose, and writes nothing', async (workerCount) => {
    const { customerId, event } = await asCustomer({ ...validBody, workerCount });

    const res = await invoke(handler, event);

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ workerCount: WORKER_COUNT_MESSAGE });
    expect(await jobsRepo.listForCustomer(customerId)).toEqual([]);
  });
});
