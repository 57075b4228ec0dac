import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { bookingEntity, customerEmailEntity, outboundMailEntity } from '../../shared/entities';
import { queryAll } from '../common/data/query';
import { describe, expect, it } from 'vitest';
import { bookingIdPattern } from '../../shared/schemas/booking';
import { handler } from './create-booking';
import { handler as getBooking } from './get-booking';
import { dynamo, tableName } from '../common/clients';
import { bookingsRepo } from './data/bookings';
import { customersRepo } from '../common/auth/customers';
import { jobsRepo } from '../jobs/data/jobs';
import { newId } from '../common/ids';
import { issuedCustomer } from '../testing/customers';
import { dispatchableWorker, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withCookies, withHeaders, withPath } from '../testing/events';
import { mailsTo, outboxRecord } from '../testing/mail';
import { handler as sendMail } from '../mail/send-mail';

const sample = sampleEvent('create-booking');
const validBody = JSON.parse(sample.body!) as Record<string, unknown>;

async function bookingsOf(customerId: string) {
  // The customer's partition holds their bookings' jobs too (among their requests): the range is the bookings' sort prefix.
  return queryAll(bookingEntity.indexes.customerBookings.range(customerId));
}

/** A known customer (one the server issued), so a test can prove that a refused request wrote nothing for them. */
async function asCustomer(body: unknown) {
  const { customerId, cookie } = await issuedCustomer();
  return { customerId, cookie, event: withCookies(withBody(sample, body), [cookie]) };
}

const cookieValue = (cookie: string | undefined) => /^customer_id=([A-Za-z0-9_-]{22});/.exec(cookie ?? '')?.[1];

describe('POST /api/bookings', () => {
  it('creates a new booking with an unguessable id and returns it with status new', async () => {
    // Act
    const res = await invoke(handler, sample);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...validBody, status: 'new' });
    expect(res.body.id).toMatch(bookingIdPattern);
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    expect(res.body).not.toHaveProperty('customerId');
    const cookie = res.cookies[0]!.split(';')[0]!;
    const stored = await invoke(getBooking, withCookies(withPath(sampleEvent('get-booking'), { id: res.body.id }), [cookie]));
    expect(stored.body).toEqual(res.body);
  });

  it("creates the booking's job with it: a booking job of the booking's category, for the same customer", async () => {
    // Prepare
    const { customerId, event } = await asCustomer({ ...validBody, category: 'painting', details: 'Two coats on the hallway walls.' });

    // Act
    const res = await invoke(handler, event);

    // Assess
    const booking = await bookingsRepo.findById(res.body.id);
    expect(booking?.jobId).toEqual(expect.any(String));
    const job = await jobsRepo.findById(booking!.jobId!);
    expect(job).toMatchObject({
      kind: 'booking',
      bookingId: res.body.id,
      customerId,
      category: 'painting',
      service: 'Painting',
      customerName: validBody.name,
      customerPhone: validBody.phone,
      address: validBody.address,
      description: 'Two coats on the hallway walls.',
      latitude: null,
      longitude: null,
    });
    expect(['booked', 'offered']).toContain(job?.state);
  });

  it('sets an HttpOnly anonymous customer cookie on the first booking', async () => {
    const res = await invoke(handler, sample);

    expect(res.cookies).toHaveLength(1);
    expect(res.cookies[0]).toMatch(/^customer_id=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=\d+; SameSite=Lax; HttpOnly$/);
  });

  it('keeps the existing customer and files the booking under them', async () => {
    // Prepare
    const { customerId, event } = await asCustomer(validBody);

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    expect(res.cookies).toEqual([]);
    expect((await bookingsOf(customerId)).map((b) => b.id)).toEqual([res.body.id]);
  });

  it('treats a cookie the server never issued as a new visitor', async () => {
    // Prepare: a well-formed id the client made up.
    const madeUp = newId();

    // Act
    const res = await invoke(handler, withCookies(sample, [`customer_id=${madeUp}`]));

    // Assess
    expect(res.status).toBe(201);
    expect(res.cookies).toHaveLength(1);
    const issued = cookieValue(res.cookies[0]);
    expect(issued).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(issued).not.toBe(madeUp);
    expect((await bookingsOf(issued!)).map((b) => b.id)).toEqual([res.body.id]);
    expect(await bookingsOf(madeUp)).toEqual([]);
    expect(await customersRepo.isIssued(madeUp)).toBe(false);
  });

  it('trims text and accepts a booking without details', async () => {
    const { details: _omitted, ...rest } = validBody;
    const res = await invoke(handler, withBody(sample, { ...rest, name: '  Dana  ' }));

    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Dana');
    expect(res.body).not.toHaveProperty('details');
  });

  it.each([
    ['name', '', 'Name is required'],
    ['phone', '555-01', 'Valid phone number required'],
    ['phone', 'call me maybe', 'Valid phone number required'],
    ['address', 'Elm', 'Complete address required'],
    ['category', '', 'Service category required'],
    ['category', 'astrology', 'Choose one of our service categories'],
  ])('refuses %s = %j with "%s" and writes nothing', async (field, value, message) => {
    // Prepare
    const { customerId, event } = await asCustomer({ ...validBody, [field]: value });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'ValidationError', message, fields: { [field]: message } });
    expect(await bookingsOf(customerId)).toEqual([]);
  });

  it('lists every missing field with its own message', async () => {
    const res = await invoke(handler, withBody(sample, {}));

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      name: 'Name is required',
      phone: 'Valid phone number required',
      address: 'Complete address required',
      category: 'Service category required',
    });
    expect(res.body.message).toBe('Some fields need attention.');
  });

  it('refuses unknown fields by name, so a client cannot set the status or owner', async () => {
    const { customerId, event } = await asCustomer({ ...validBody, status: 'completed', customerId: 'x' });

    const res = await invoke(handler, event);

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ _: 'Unknown field: status, customerId' });
    expect(await bookingsOf(customerId)).toEqual([]);
  });

  it('refuses malformed JSON with a 400 that says so', async () => {
    const res = await invoke(handler, withBody(sample, '{"name": "Dana",'));

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'BadRequestError',
      message: 'The request body is not valid JSON. Check quotes, commas and brackets.',
    });
  });

  it('refuses a JSON value that is not an object', async () => {
    const res = await invoke(handler, withBody(sample, '[1,2]'));

    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ValidationError');
  });

  it('refuses an empty body', async () => {
    const res = await invoke(handler, withBody(sample, ''));

    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The request body is empty. Send a JSON object.');
  });

  it('refuses a body that is not declared as JSON with 415', async () => {
    const res = await invoke(handler, withHeaders(sample, { 'content-type': 'text/plain' }));

    expect(res.status).toBe(415);
    expect(res.body.message).toMatch(/Content-Type: application\/json/);
  });

  it('refuses a body larger than 64 KB with 413 and writes nothing', async () => {
    const { customerId, event } = await asCustomer({ ...validBody, details: 'x'.repeat(70 * 1024) });

    const res = await invoke(handler, event);

    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/64 KB/);
    expect(await bookingsOf(customerId)).toEqual([]);
  });

  it('decodes a base64-encoded body as API Gateway may send it', async () => {
    const event = { ...sample, body: Buffer.from(sample.body!).toString('base64'), isBase64Encoded: true };

    const res = await invoke(handler, event);

    expect(res.status).toBe(201);
  });

  describe('sent again with the same Idempotency-Key (a retry after a timeout or a 503)', () => {
    const keyed = (key: string, cookies?: string[]) => {
      const event = withHeaders(sample, { 'idempotency-key': key });
      return cookies ? withCookies(event, cookies) : event;
    };

    it('answers with the booking its first call made and makes no second one', async () => {
      // Prepare
      const { customerId, cookie } = await asCustomer(validBody);
      const key = crypto.randomUUID();

      // Act
      const first = await invoke(handler, keyed(key, [cookie]));
      const again = await invoke(handler, keyed(key, [cookie]));

      // Assess
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(await bookingsOf(customerId)).toHaveLength(1);
    });

    it('finds the first booking of a new visitor whose retry arrives without the cookie the lost answer carried', async () => {
      // Prepare
      const key = crypto.randomUUID();

      // Act
      const [one, two] = await Promise.all([invoke(handler, keyed(key)), invoke(handler, keyed(key))]);

      // Assess
      expect([one.status, two.status]).toEqual([201, 201]);
      expect(two.body.id).toBe(one.body.id);
      expect(one.cookies).toEqual(two.cookies);
      const customerId = cookieValue(one.cookies[0])!;
      expect(await bookingsOf(customerId)).toHaveLength(1);
    });

    it("does not make a first-time visitor's id computable from their Idempotency-Key", async () => {
      // Prepare: the id a key once determined, which anyone who saw the key could compute.
      const key = crypto.randomUUID();
      const computable = createHash('sha256').update(`customer\0\0${key}`).digest('base64url').slice(0, 22);

      // Act
      const res = await invoke(handler, keyed(key));

      // Assess
      expect(res.status).toBe(201);
      const customerId = cookieValue(res.cookies[0]);
      expect(customerId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(customerId).not.toBe(computable);
      expect(await customersRepo.isIssued(computable)).toBe(false);
      expect((await bookingsOf(customerId!)).map((b) => b.id)).toEqual([res.body.id]);
    });

    it('makes a new booking for a new key', async () => {
      const { customerId, cookie } = await asCustomer(validBody);

      await invoke(handler, keyed(crypto.randomUUID(), [cookie]));
      await invoke(handler, keyed(crypto.randomUUID(), [cookie]));

      expect(await bookingsOf(customerId)).toHaveLength(2);
    });

    it('refuses a key too short to be unguessable with a 400 that says what a key must be, and writes nothing', async () => {
      const { customerId, cookie } = await asCustomer(validBody);

      const res = await invoke(handler, keyed('1234', [cookie]));

      expect(res.status).toBe(400);
      expect(res.body.message).toBe('The Idempotency-Key header must be 16 to 64 letters, digits, - or _ (a UUID will do).');
      expect(await bookingsOf(customerId)).toEqual([]);
    });
  });
});

describe('POST /api/bookings: the price and the time', () => {
  it('stores the requested time on the booking job and an estimate computed by the server', async () => {
    // Prepare: a pro of the trade on call, so there is a rate to price at
    await dispatchableWorker(String(validBody.category), testPlace());
    const { customerId, cookie } = await issuedCustomer();
    const at = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000).toISOString();
    const body = { ...validBody, requestedTime: at, jobSize: 'large' };

    // Act
    const res = await invoke(handler, withCookies(withBody(sample, body), [cookie]));

    // Assess
    expect(res.status).toBe(201);
    const [job] = await jobsRepo.listForCustomer(customerId);
    expect(job?.requestedTime).toBe(at);
    expect(job?.estimate).toMatchObject({ rushFee: 0 });
    expect(job!.estimate!.baseAmount).toBeGreaterThan(0);
  });

  it('refuses a time beyond 14 days, saying what to choose, and books nothing', async () => {
    // Prepare
    const { customerId, cookie } = await issuedCustomer();
    const body = { ...validBody, requestedTime: new Date(Date.now() + 20 * 24 * 60 * 60 * 1000).toISOString() };

    // Act
    const res = await invoke(handler, withCookies(withBody(sample, body), [cookie]));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Choose a time within the next 14 days');
    expect(await jobsRepo.listForCustomer(customerId)).toHaveLength(0);
  });
});

async function customerEmailRecord(email: string, customerId: string) {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: customerEmailEntity.key(email, customerId), ConsistentRead: true }));
  return out.Item;
}

describe('POST /api/bookings: the email and the mail', () => {
  it('mails the customer once that the booking was received, with its tracking page, even when sent and delivered twice', async () => {
    // Prepare: an address of its own, and the same submission sent twice (the same Idempotency-Key)
    const email = `book-${crypto.randomUUID()}@example.com`;
    const { cookie } = await issuedCustomer();
    const event = withCookies(withHeaders(withBody(sample, { ...validBody, email }), { 'idempotency-key': crypto.randomUUID() }), [cookie]);
    const first = await invoke(handler, event);
    const again = await invoke(handler, event);
    const record = await outboxRecord('booking-received', first.body.id);

    // Act: the table's stream hands the mail over, and delivers it a second time
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    expect(again.body.id).toBe(first.body.id);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('We received your Plumbing booking');
    expect(mails[0]!.text).toContain(`Its number is ${first.body.id.slice(-8).toUpperCase()}.`);
    // The page /book itself opens after booking: /track takes the booking's id.
    expect(mails[0]!.text).toContain(`Track your booking: http://localhost:3000/track#id=${first.body.id}`);
  });

  it("keeps the email on the booking and as the job's customerEmail, and records that this customer used it", async () => {
    // Prepare
    const email = `book-${crypto.randomUUID()}@example.com`;
    const { customerId, event } = await asCustomer({ ...validBody, email: ` ${email.toUpperCase()} ` });

    // Act
    const res = await invoke(handler, event);

    // Assess: stored lower case and trimmed, never shown in the booking's public view
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('email');
    const booking = await bookingsRepo.findById(res.body.id);
    expect(booking?.email).toBe(email);
    expect((await jobsRepo.findById(booking!.jobId!))?.customerEmail).toBe(email);
    expect(await customerEmailRecord(email, customerId)).toMatchObject({ entity: 'customer-email', email, customerId });
  });

  it('books without an email (or an empty one): no address kept and no mail', async () => {
    // Prepare
    const { event } = await asCustomer({ ...validBody, email: '' });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    const booking = await bookingsRepo.findById(res.body.id);
    expect(booking).not.toHaveProperty('email');
    expect((await jobsRepo.findById(booking!.jobId!))?.customerEmail).toBeNull();
    const mail = await dynamo.send(new GetCommand({ TableName: tableName, Key: outboundMailEntity.key('booking-received', res.body.id) }));
    expect(mail.Item).toBeUndefined();
  });

  it('refuses an email that is not one with the field message, and books nothing', async () => {
    // Prepare
    const { customerId, event } = await asCustomer({ ...validBody, email: 'dana-at-example' });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ email: 'Enter a valid email address, or leave it empty' });
    expect(await bookingsOf(customerId)).toEqual([]);
  });
});
