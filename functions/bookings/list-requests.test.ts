import { describe, expect, it } from 'vitest';
import { handler as createBooking } from './create-booking';
import { handler } from './list-requests';
import { jobsRepo } from '../jobs/data/jobs';
import { newPenalty } from '../arrival/data/penalties';
import { offerNext } from '../jobs/dispatch';
import { newId } from '../common/ids';
import { issuedCustomer } from '../testing/customers';
import { dispatchableWorker, north, testCategory, testJob, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withCookies } from '../testing/events';

const sample = sampleEvent('list-requests');

/** As the customer `customerId`: the tests' customers own the jobs they list, which is what makes such an id issued. */
const listAs = (customerId: string) => invoke(handler, withCookies(sample, [`customer_id=${customerId}`]));

/** A job accepted by `worker` now, due 45 minutes from now. */
async function acceptAs(jobId: string, workerId: string) {
  const now = Date.now();
  await jobsRepo.accept({
    jobId,
    workerId,
    hourlyRate: 4500,
    now: new Date(now).toISOString(),
    arriveBy: new Date(now + 45 * 60_000).toISOString(),
  });
}

describe('GET /api/requests', () => {
  it('answers a visitor without a customer cookie with an empty list', async () => {
    // Act
    const res = await invoke(handler, withCookies(sample, []));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('answers a malformed customer cookie with an empty list, not an error', async () => {
    const res = await invoke(handler, withCookies(sample, ['customer_id=not a valid id']));

    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("lists the caller's own requests and never another customer's", async () => {
    // Prepare
    const [mine, theirs] = [newId(), newId()];
    const category = testCategory();
    const own = await testJob(category, null, { customerId: mine });
    await testJob(category, null, { customerId: theirs });

    // Act
    const res = await listAs(mine);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.map((r: { id: string }) => r.id)).toEqual([own.id]);
    expect(res.body[0]).not.toHaveProperty('customerId');
  });

  it('lists the newest request first', async () => {
    // Prepare: stored out of order, so the order comes from the list, not from the writes.
    const customerId = newId();
    const category = testCategory();
    const base = Date.now() - 60_000;
    const at = (s: number) => new Date(base + s * 1000).toISOString();
    const middle = await testJob(category, null, { customerId, createdAt: at(10) });
    const newest = await testJob(category, null, { customerId, createdAt: at(20) });
    const oldest = await testJob(category, null, { customerId, createdAt: at(0) });

    // Act
    const res = await listAs(customerId);

    // Assess
    expect(res.body.map((r: { id: string }) => r.id)).toEqual([newest.id, middle.id, oldest.id]);
  });

  it('shows an accepted request In Progress with the worker who took it', async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const worker = await dispatchableWorker(category, north(place, 2), { fullName: 'Maya Ortiz', phone: '555-010-0123' });
    const job = await testJob(category, place);
    await offerNext(job.id);
    await acceptAs(job.id, worker.id);

    // Act
    const res = await listAs(job.customerId);

    // Assess
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      id: job.id,
      status: 'In Progress',
      jobState: 'accepted',
      dispatch: 'assigned',
      reassigned: false,
      worker: { id: worker.id, name: 'Maya Ortiz', phone: '555-010-0123', photoUrl: null },
    });
    expect(res.body[0].etaMinutes).toEqual(expect.any(Number));
  });

  it('shows a request Pending without a worker while it is only offered', async () => {
    const [category, place] = [testCategory(), testPlace()];
    await dispatchableWorker(category, north(place, 1));
    const job = await testJob(category, place);
    await offerNext(job.id);

    const res = await listAs(job.customerId);

    expect(res.body[0]).toMatchObject({ status: 'Pending', jobState: 'offered', dispatch: 'searching', worker: null, etaMinutes: null });
  });

  it("says 'no_worker_available' for a request dispatch found nobody for", async () => {
    // Prepare: a category of its own, with nobody in it.
    const job = await testJob(testCategory(), testPlace());
    await offerNext(job.id);

    // Act
    const res = await listAs(job.customerId);

    // Assess
    expect(res.body[0]).toMatchObject({ id: job.id, status: 'Pending', dispatch: 'no_worker_available', worker: null });
  });

  it('shows a request reassigned after its worker arrived too late, without that worker', async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const late = await dispatchableWorker(category, north(place, 1));
    const job = await testJob(category, place);
    await offerNext(job.id);
    await acceptAs(job.id, late.id);

    // Act
    const now = new Date().toISOString();
    const penalty = newPenalty({ workerId: late.id, workerName: late.fullName, jobId: job.id, at: now, reason: 'late_arrival', evidence: { arriveBy: now, lastFix: null, distanceM: null, jobHasPosition: true, claim: null } });
    const reassigned = await jobsRepo.reassignLate({
      jobId: job.id,
      workerId: late.id,
      strikesBefore: 0,
      statusBefore: 'active',
      strikesToSuspend: 2,
      penalty,
      suspendReason: 'Suspended for late arrivals.',
      now,
    });
    const res = await listAs(job.customerId);

    // Assess
    expect(reassigned).toEqual({ strikes: 1, suspended: false });
    expect(res.body[0]).toMatchObject({ id: job.id, reassigned: true, status: 'Pending', worker: null });
  });

  it("lists the customer's bookings among their requests, numbered as the booking they were sent to", async () => {
    // Prepare
    const { customerId, cookie } = await issuedCustomer();
    const booked = await invoke(createBooking, withCookies(sampleEvent('create-booking'), [cookie]));
    const request = await testJob(testCategory(), null, { customerId });

    // Act
    const res = await listAs(customerId);

    // Assess
    expect(booked.status).toBe(201);
    expect(res.body).toHaveLength(2);
    const booking = res.body.find((r: { kind: string }) => r.kind === 'booking');
    expect(booking).toMatchObject({ number: booked.body.id.slice(-8).toUpperCase(), status: 'Pending' });
    expect(res.body.map((r: { id: string }) => r.id)).toContain(request.id);
  });
});
