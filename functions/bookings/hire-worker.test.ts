import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { customerEmailEntity } from '../../shared/entities';
import { dynamo, tableName } from '../common/clients';
import { handler } from './hire-worker';
import { handler as listRequests } from './list-requests';
import { jobsRepo } from '../jobs/data/jobs';
import type { WorkerItem } from '../workers/data/workers';
import { timerNames } from '../jobs/dispatch';
import { newId } from '../common/ids';
import { issuedCustomer } from '../testing/customers';
import { dispatchableWorker, findSchedule, north, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { mailsTo, outboxRecord } from '../testing/mail';
import { createTestWorker } from '../testing/workers';
import { handler as sendMail } from '../mail/send-mail';

const sample = sampleEvent('hire-worker');
const validBody = JSON.parse(sample.body!) as Record<string, unknown>;

/**
 * A hire by a known customer at a random place (so the workers within reach are the test's own).
 * Plumbing maps to the real 'plumbing' category, which other test files share: hence the place.
 */
async function hireAs(workerId: string, at = testPlace(), extra: Record<string, unknown> = {}) {
  const { customerId, cookie } = await issuedCustomer();
  const body = { ...validBody, workerId, service: 'Plumbing', clientLatitude: at.lat, clientLongitude: at.lng, ...extra };
  return { customerId, cookie, event: withCookies(withBody(sample, body), [cookie]) };
}

describe('POST /api/hire', () => {
  it('offers the job to the hired worker alone first, even with nearer workers on call', async () => {
    // Prepare
    const place = testPlace();
    const nearer = await dispatchableWorker('plumbing', north(place, 0.2));
    const hired = await dispatchableWorker('plumbing', north(place, 6));
    const { customerId, event } = await hireAs(hired.id, place);

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, request: { status: 'Pending', jobState: 'offered', worker: null } });
    const job = await jobsRepo.findById(res.body.request.id);
    expect(job).toMatchObject({ kind: 'hire', customerId, category: 'plumbing', preferredWorkerId: hired.id, state: 'offered' });
    expect(Object.keys(job!.offers)).toEqual([hired.id]);
    expect(job!.tried).toEqual([hired.id]);
    expect(job!.tried).not.toContain(nearer.id);
    expect(await findSchedule(timerNames.offer(job!.id, hired.id))).toBeDefined();
  });

  it('mails the customer that the hire was received, saying the chosen pro is asked first, with its tracking page', async () => {
    // Prepare
    const place = testPlace();
    const hired = await dispatchableWorker('plumbing', north(place, 1));
    const email = `hire-${newId()}@example.com`;
    const { event } = await hireAs(hired.id, place, { email });
    const res = await invoke(handler, event);

    // Act: the table's stream hands the mail over
    await sendMail({ Records: [await outboxRecord('request-received', res.body.request.id)] });

    // Assess
    const [mail, ...more] = await mailsTo(email);
    expect(more).toEqual([]);
    expect(mail!.text).toContain('We have asked the pro you chose');
    expect(mail!.text).toContain(`http://localhost:3000/track#id=${res.body.request.id}`);
  });

  it('records that this customer used the address, with the hire', async () => {
    // Prepare
    const place = testPlace();
    const hired = await dispatchableWorker('plumbing', north(place, 1));
    const email = `hire-${crypto.randomUUID()}@example.com`;
    const { customerId, event } = await hireAs(hired.id, place, { email });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: customerEmailEntity.key(email, customerId), ConsistentRead: true }));
    expect(out.Item).toMatchObject({ entity: 'customer-email', email, customerId });
  });

  it('sets the customer cookie on a first hire', async () => {
    const hired = await dispatchableWorker('plumbing', testPlace());
    const { event } = await hireAs(hired.id);

    const res = await invoke(handler, withCookies(event, []));

    expect(res.status).toBe(201);
    expect(res.cookies).toHaveLength(1);
    expect(res.cookies[0]).toMatch(/^customer_id=[A-Za-z0-9_-]{22};/);
  });

  it('offers the nearest others instead when the hired worker is busy with another job', async () => {
    // Prepare
    const place = testPlace();
    const hired = await dispatchableWorker('plumbing', north(place, 0.5), { activeJobId: 'AnotherJobAnotherJob00' });
    const other = await dispatchableWorker('plumbing', north(place, 2));
    const { event } = await hireAs(hired.id, place);

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    const job = await jobsRepo.findById(res.body.request.id);
    expect(job!.offers[other.id]).toBeDefined();
    expect(job!.offers[hired.id]).toBeUndefined();
  });

  it("files the hire under the worker's own trade when the service chosen is not one of theirs", async () => {
    const place = testPlace();
    const hired = await dispatchableWorker('painting', north(place, 1));
    const { event } = await hireAs(hired.id, place, { service: 'Plumbing' });

    const res = await invoke(handler, event);

    expect(res.status).toBe(201);
    expect(await jobsRepo.findById(res.body.request.id)).toMatchObject({ category: 'painting', service: 'Plumbing' });
  });

  it.each<[string, () => Promise<WorkerItem | { id: string }>]>([
    ['an unknown worker', async () => ({ id: newId() })],
    ['a terminated worker', () => createTestWorker({ status: 'terminated', strikes: 2 })],
    ['an unverified worker', () => createTestWorker({ isVerified: false })],
    ['a worker still under review', () => createTestWorker({ status: 'pending_review' })],
  ])('answers 404 for %s and writes nothing', async (_case, makeWorker) => {
    // Prepare
    const worker = await makeWorker();
    const { customerId, event } = await hireAs(worker.id);

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: 'NotFoundError',
      message: 'This professional is not available for hire. Choose another from the list.',
    });
    expect(await jobsRepo.listForCustomer(customerId)).toEqual([]);
  });

  it('refuses a hire without a worker with the field message', async () => {
    const { customerId, event } = await hireAs('');

    const res = await invoke(handler, event);

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ workerId: 'Choose a worker to hire' });
    expect(await jobsRepo.listForCustomer(customerId)).toEqual([]);
  });

  it("shows the hire in the customer's requests", async () => {
    // Prepare
    const hired = await dispatchableWorker('plumbing', testPlace());
    const { cookie, event } = await hireAs(hired.id);
    const created = await invoke(handler, event);

    // Act
    const res = await invoke(listRequests, withCookies(sampleEvent('list-requests'), [cookie]));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual([created.body.request]);
  });
});

describe('POST /api/hire: the price and the time', () => {
  it('stores the estimate at the hired pro rate with the requested time', async () => {
    // Prepare
    const place = testPlace();
    const hired = await dispatchableWorker('plumbing', place, { hourlyRate: 6600 });
    const at = new Date(Date.now() + 26 * 60 * 60 * 1000).toISOString();
    const { event } = await hireAs(hired.id, place, { requestedTime: at, jobSize: 'large' });

    // Act
    const res = await invoke(handler, event);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body.request.requestedTime).toBe(at);
    expect(res.body.request.estimate).toMatchObject({ hourlyRate: 6600, rushFee: 0 });
    expect((await jobsRepo.findById(res.body.request.id))?.estimate).toEqual(res.body.request.estimate);
  });

  it('refuses a requested time in the past, saying what to choose', async () => {
    const hired = await dispatchableWorker('plumbing', testPlace());
    const { event } = await hireAs(hired.id, testPlace(), { requestedTime: new Date(Date.now() - 60_000).toISOString() });

    const res = await invoke(handler, event);

    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Choose a time within the next 14 days');
  });
});
