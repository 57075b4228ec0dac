import { describe, expect, it } from 'vitest';
import { handler as createBooking } from './create-booking';
import { handler } from './get-tracked-request';
import { issuedCustomer } from './lib/testing/customers';
import { testCategory, testJob, testPlace } from './lib/testing/dispatch';
import { invoke, sampleEvent, withCookies, withPath } from './lib/testing/events';

const sample = sampleEvent('get-tracked-request');
const track = (id: string, cookies: string[] = []) => invoke(handler, withCookies(withPath(sample, { id }), cookies));

describe('GET /api/track/{id}', () => {
  it('shows a request to its customer as theirs to act on', async () => {
    // Prepare: its customer is known to the server by the request they own.
    const job = await testJob(testCategory(), testPlace());

    // Act
    const res = await track(job.id, [`customer_id=${job.customerId}`]);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: job.id, kind: 'request', number: job.id.slice(-8).toUpperCase(), viewer: 'customer', canCancel: true });
    expect(res.body).not.toHaveProperty('customerId');
  });

  it('says when the offers of a scheduled job open while they wait, and nothing once they have', async () => {
    // Prepare: one job starting in three days (held back from dispatch), one in two hours (offered at once), one as soon as possible.
    const HOUR = 3_600_000;
    const later = new Date(Date.now() + 72 * HOUR).toISOString();
    const [waiting, soon, now] = await Promise.all([
      testJob(testCategory(), testPlace(), { requestedTime: later }),
      testJob(testCategory(), testPlace(), { requestedTime: new Date(Date.now() + 2 * HOUR).toISOString() }),
      testJob(testCategory(), testPlace()),
    ]);

    // Act
    const [a, b, c] = await Promise.all([track(waiting.id), track(soon.id), track(now.id)]);

    // Assess
    expect(a.body).toMatchObject({ requestedTime: later, offersOpenAt: new Date(Date.parse(later) - 24 * HOUR).toISOString() });
    expect([b.body.offersOpenAt, c.body.offersOpenAt]).toEqual([null, null]);
  });

  it('lets anyone holding the link follow it, but not as its customer', async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace());
    const anotherCustomer = await issuedCustomer();

    // Act
    const [anonymous, other] = await Promise.all([track(job.id), track(job.id, [anotherCustomer.cookie])]);

    // Assess
    expect([anonymous.status, other.status]).toEqual([200, 200]);
    expect([anonymous.body.viewer, other.body.viewer]).toEqual(['link', 'link']);
  });

  it("finds a booking's job by the booking's own id, the one /book sends people to", async () => {
    // Prepare
    const booked = await invoke(createBooking, sampleEvent('create-booking'));
    const customer = booked.cookies[0]!.split(';')[0]!;

    // Act
    const res = await track(booked.body.id, [customer]);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'booking', viewer: 'customer', status: 'Pending' });
    expect(res.body.id).not.toBe(booked.body.id);
  });

  it('answers an unknown or malformed id with Booking Not Found', async () => {
    // Act
    const [unknown, malformed] = await Promise.all([track('AAAAAAAAAAAAAAAAAAAAAA'), track('abc')]);

    // Assess
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('The booking ID you entered could not be found.');
    expect(malformed.status).toBe(404);
  });
});
