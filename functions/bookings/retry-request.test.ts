import { describe, expect, it } from 'vitest';
import { handler } from './retry-request';
import { jobsRepo } from '../jobs/data/jobs';
import { offerNext } from '../jobs/dispatch';
import { issuedCustomer } from '../testing/customers';
import { dispatchableWorker, testCategory, testJob, testPlace } from '../testing/dispatch';
import { testCrew, takenBy } from '../testing/crews';
import { CREW_MEMBER_ACTION } from '../jobs/crews';
import { invoke, sampleEvent, withCookies, withPath } from '../testing/events';

const sample = sampleEvent('retry-request');

const asCustomer = (jobId: string, customerId: string) => withCookies(withPath(sample, { id: jobId }), [`customer_id=${customerId}`]);

/** A job whose search ended with nobody: dispatched while no pro of its trade was on call. */
async function unfilledJob(category = testCategory(), at = testPlace()) {
  const job = await testJob(category, at);
  await offerNext(job.id);
  const stored = (await jobsRepo.findById(job.id))!;
  expect(stored.dispatch).toBe('no_worker_available');
  return stored;
}

describe('POST /api/requests/{id}/retry', () => {
  it('offers the same job again to a pro who is on call now, nothing retyped', async () => {
    // Prepare
    const category = testCategory();
    const place = testPlace();
    const job = await unfilledJob(category, place);
    const pro = await dispatchableWorker(category, place);

    // Act
    const res = await invoke(handler, asCustomer(job.id, job.customerId));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: job.id, dispatch: 'searching', jobState: 'offered', offersOutstanding: 1, canRetry: false, canCancel: true });
    const stored = (await jobsRepo.findById(job.id))!;
    expect(Object.keys(stored.offers)).toEqual([pro.id]);
    expect(stored.description).toBe(job.description);
    expect(stored.reopenedCount).toBe(1);
  });

  it('tells the customer again when still nobody is on call, and a second press changes nothing twice', async () => {
    // Prepare
    const job = await unfilledJob();

    // Act
    const [first, second] = await Promise.all([
      invoke(handler, asCustomer(job.id, job.customerId)),
      invoke(handler, asCustomer(job.id, job.customerId)),
    ]);

    // Assess
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const stored = (await jobsRepo.findById(job.id))!;
    expect(stored.dispatch).toBe('no_worker_available');
    expect(stored.reopenedCount).toBe(1);
    expect(first.body.canRetry).toBe(true);
  });

  it("answers another customer's job as a missing one and changes nothing", async () => {
    // Prepare
    const job = await unfilledJob();
    const stranger = await issuedCustomer();

    // Act
    const res = await invoke(handler, asCustomer(job.id, stranger.customerId));

    // Assess
    expect(res.status).toBe(404);
    expect((await jobsRepo.findById(job.id))!.reopenedCount).toBeUndefined();
  });

  it('refuses with a reason once a pro has accepted', async () => {
    // Prepare
    const category = testCategory();
    const place = testPlace();
    const pro = await dispatchableWorker(category, place);
    const job = await testJob(category, place);
    await offerNext(job.id);
    const now = new Date().toISOString();
    await jobsRepo.accept({ jobId: job.id, workerId: pro.id, hourlyRate: 5000, now, arriveBy: now });

    // Act
    const res = await invoke(handler, asCustomer(job.id, job.customerId));

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A professional has already accepted this request.');
  });
});

describe('POST /api/requests/{id}/retry: a crew', () => {
  it('searches again for every pro of the request that ended with nobody, leaving the pros who accepted alone', async () => {
    // Prepare: the lead is held; nobody took the two members; then a pro comes on call
    const [category, place] = [testCategory(), testPlace()];
    const holder = await dispatchableWorker(category, place, { isAvailable: false });
    const [lead, second, third] = await testCrew(category, place, 3);
    await takenBy(lead!, holder.id);
    for (const job of [second!, third!]) await offerNext(job.id);
    expect((await jobsRepo.findById(second!.id))!.dispatch).toBe('no_worker_available');
    const pro = await dispatchableWorker(category, place);

    // Act
    const res = await invoke(handler, asCustomer(lead!.id, lead!.customerId));

    // Assess
    expect(res.status).toBe(200);
    // One pro for two jobs: the other finds nobody again, and may be tried again.
    expect(res.body).toMatchObject({ jobState: 'accepted', canRetry: true });
    const [a, b, c] = await Promise.all([lead!, second!, third!].map((j) => jobsRepo.findById(j.id)));
    expect(a).toMatchObject({ state: 'accepted', acceptedBy: holder.id });
    expect(b!.reopenedCount).toBe(1);
    expect(c!.reopenedCount).toBe(1);
    // The one pro on call is offered one of the two, never both.
    expect([...Object.keys(b!.offers), ...Object.keys(c!.offers)]).toEqual([pro.id]);
  });

  it("refuses a member's own id, pointing to the request's page", async () => {
    const [, member] = await testCrew(testCategory(), testPlace(), 2);
    await offerNext(member!.id);

    const res = await invoke(handler, asCustomer(member!.id, member!.customerId));

    expect(res.status).toBe(409);
    expect(res.body.message).toBe(CREW_MEMBER_ACTION);
  });
});
