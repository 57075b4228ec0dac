import { describe, expect, it } from 'vitest';
import { handler } from './cancel-request';
import { handler as accept } from '../jobs/accept-job';
import { jobsRepo } from '../jobs/data/jobs';
import { offerNext, timerNames } from '../jobs/dispatch';
import { issuedCustomer } from '../testing/customers';
import { dispatchableWorker, findSchedule, testCategory, testJob, testPlace } from '../testing/dispatch';
import { testCrew, takenBy } from '../testing/crews';
import { CREW_MEMBER_ACTION } from '../jobs/crews';
import { invoke, sampleEvent, withBody, withCookies, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('cancel-request');
const asCustomer = (jobId: string, customerId: string) => withCookies(withPath(sample, { id: jobId }), [`customer_id=${customerId}`]);

async function offeredTo(count: number) {
  const category = testCategory();
  const place = testPlace();
  const pros = await Promise.all(Array.from({ length: count }, () => dispatchableWorker(category, place)));
  const job = await testJob(category, place);
  await offerNext(job.id);
  return { job: (await jobsRepo.findById(job.id))!, pros };
}

describe('POST /api/requests/{id}/cancel', () => {
  it('cancels a request nobody accepted, withdrawing its offers and their timers', async () => {
    // Prepare
    const { job, pros } = await offeredTo(2);
    expect(Object.keys(job.offers)).toHaveLength(2);

    // Act
    const res = await invoke(handler, asCustomer(job.id, job.customerId));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: job.id, jobState: 'cancelled', canCancel: false, canRetry: false });
    expect(res.body.times.cancelledAt).toEqual(expect.any(String));
    const stored = (await jobsRepo.findById(job.id))!;
    expect(stored.state).toBe('cancelled');
    expect(stored.offers).toEqual({});
    for (const pro of pros) {
      expect(await jobsRepo.offeredJobIds(pro.id)).not.toContain(job.id);
      expect(await findSchedule(timerNames.offer(job.id, pro.id))).toBeUndefined();
    }
  });

  it('leaves exactly one result when the customer cancels while a pro accepts', async () => {
    // Prepare
    const { job, pros } = await offeredTo(1);
    const pro = pros[0]!;
    const acceptEvent = withBody(withPath(sampleEvent('accept-job'), { jobId: job.id }), {});

    // Act
    const [cancelled, accepted] = await Promise.all([
      invoke(handler, asCustomer(job.id, job.customerId)),
      invoke(accept, withBearer(acceptEvent, await workerToken(pro.id))),
    ]);

    // Assess
    const stored = (await jobsRepo.findById(job.id))!;
    expect([cancelled.status, accepted.status].sort()).toEqual([200, 409].sort());
    expect(stored.state).toBe(cancelled.status === 200 ? 'cancelled' : 'accepted');
  });

  it('refuses once a pro has accepted, saying what to do instead', async () => {
    // Prepare
    const { job, pros } = await offeredTo(1);
    const now = new Date().toISOString();
    await jobsRepo.accept({ jobId: job.id, workerId: pros[0]!.id, hourlyRate: 5000, now, arriveBy: now });

    // Act
    const res = await invoke(handler, asCustomer(job.id, job.customerId));

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/already accepted/);
    expect((await jobsRepo.findById(job.id))!.state).toBe('accepted');
  });

  it('answers a second cancel with the cancelled request', async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace());
    await invoke(handler, asCustomer(job.id, job.customerId));

    // Act
    const again = await invoke(handler, asCustomer(job.id, job.customerId));

    // Assess
    expect(again.status).toBe(200);
    expect(again.body.jobState).toBe('cancelled');
  });

  it("answers another customer's job as a missing one", async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace());
    const stranger = await issuedCustomer();

    // Act
    const res = await invoke(handler, asCustomer(job.id, stranger.customerId));

    // Assess
    expect(res.status).toBe(404);
    expect((await jobsRepo.findById(job.id))!.state).toBe('booked');
  });
});

describe('POST /api/requests/{id}/cancel: a crew', () => {
  it('cancels every pro of the request, withdrawing each one\'s offers', async () => {
    // Prepare: a crew of three, two of its jobs offered to pros nearby
    const [category, place] = [testCategory(), testPlace()];
    await Promise.all([dispatchableWorker(category, place), dispatchableWorker(category, place)]);
    const crew = await testCrew(category, place, 3);
    for (const job of crew) await offerNext(job.id);

    // Act
    const res = await invoke(handler, asCustomer(crew[0]!.id, crew[0]!.customerId));
    const again = await invoke(handler, asCustomer(crew[0]!.id, crew[0]!.customerId));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jobState: 'cancelled', canCancel: false });
    expect(res.body.crew.map((m: { jobState: string }) => m.jobState)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    for (const job of await jobsRepo.findMany(crew.map((j) => j.id))) expect(job).toMatchObject({ state: 'cancelled', offers: {} });
    expect(again.status).toBe(200);
  });

  it('cancels nothing while any pro of the request holds an as-soon-as-possible job', async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const pro = await dispatchableWorker(category, place);
    const [lead, member] = await testCrew(category, place, 2);
    await takenBy(member!, pro.id);

    // Act
    const res = await invoke(handler, asCustomer(lead!.id, lead!.customerId));

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/already accepted/);
    expect((await jobsRepo.findById(lead!.id))!.state).toBe('booked');
    expect((await jobsRepo.findById(member!.id))!.state).toBe('accepted');
  });

  it("refuses a member's own id, pointing to the request's page", async () => {
    const [, member] = await testCrew(testCategory(), testPlace(), 2);

    const res = await invoke(handler, asCustomer(member!.id, member!.customerId));

    expect(res.status).toBe(409);
    expect(res.body.message).toBe(CREW_MEMBER_ACTION);
    expect((await jobsRepo.findById(member!.id))!.state).toBe('booked');
  });
});
