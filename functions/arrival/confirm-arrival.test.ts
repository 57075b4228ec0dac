import { describe, expect, it } from 'vitest';
import { handler } from './confirm-arrival';
import { handler as accept } from '../jobs/accept-job';
import { handler as enforceArrival } from './enforce-arrival';
import { handler as setJobState } from '../jobs/set-job-state';
import { jobsRepo } from '../jobs/data/jobs';
import { notificationsRepo } from '../realtime/data/notifications';
import { workersRepo } from '../workers/data/workers';
import { timerNames } from '../jobs/dispatch';
import { newId } from '../common/ids';
import { markIssued } from '../testing/customers';
import { dispatchableWorker, findSchedule, offeredJob, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withCookies, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('confirm-arrival');

/** The customer's answer to "Has your pro arrived?", from their own browser (its cookie). */
const answer = (jobId: string, cookie: string, arrived: boolean) => invoke(handler, withCookies(withPath(withBody(sample, { arrived }), { id: jobId }), [cookie]));

/**
 * A job with no position (a typed address) accepted by a pro who pressed Mark Arrived: the claim
 * waits for the customer. `overdue`: the 45 minutes and the customer's time to answer are over.
 */
async function claimedJob(overdue = false) {
  const category = testCategory();
  const worker = await dispatchableWorker(category, null);
  const job = await offeredJob(category, [worker.id]);
  const token = await workerToken(worker.id);
  const cookie = await markIssued(job.customerId);
  if (overdue) {
    const now = Date.now();
    await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: 4000, now: new Date(now - 3_000_000).toISOString(), arriveBy: new Date(now - 1000).toISOString() });
    const claim = { workerId: worker.id, claimedAt: new Date(now - 600_000).toISOString(), reason: 'no-job-position' as const, distanceM: null };
    await jobsRepo.claimArrival({ jobId: job.id, from: 'accepted', claim, now: new Date(now).toISOString() });
  } else {
    await invoke(accept, withBearer(withPath(withBody(sampleEvent('accept-job'), {}), { jobId: job.id }), token));
    const pressed = await invoke(setJobState, withBearer(withPath(withBody(sampleEvent('set-job-state'), { state: 'arrived' }), { id: job.id }), token));
    expect(pressed.status).toBe(202);
  }
  const claimedAt = (await jobsRepo.findById(job.id))!.arrivalClaim!.claimedAt;
  return { job, worker, cookie, claimedAt };
}

const proTold = async (workerId: string, title: string) => (await notificationsRepo.latest('worker', workerId)).filter((n) => n.title === title);

describe('POST /api/requests/{id}/arrival', () => {
  it('moves the job to arrived as of the pro\'s claim when the customer says yes, ends the arrival timer and tells the pro', async () => {
    // Prepare
    const { job, worker, cookie, claimedAt } = await claimedJob();
    expect(await findSchedule(timerNames.arrival(job.id, worker.id))).toBeDefined();

    // Act
    const res = await answer(job.id, cookie, true);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: job.id, jobState: 'arrived', arrivalClaim: null, times: { arrivedAt: claimedAt } });
    const stored = (await jobsRepo.findById(job.id))!;
    expect(stored).toMatchObject({ state: 'arrived', arrivedAt: claimedAt, arrivalEvidence: { method: 'customer', claimedAt, confirmedAt: expect.any(String) } });
    expect(stored.arrivalClaim).toBeUndefined();
    expect(await findSchedule(timerNames.arrival(job.id, worker.id))).toBeUndefined();
    expect(await proTold(worker.id, 'Arrival confirmed')).toHaveLength(1);
  });

  it('clears the claim when the customer says not yet, keeps the 45-minute rule running and tells the pro', async () => {
    // Prepare
    const { job, worker, cookie } = await claimedJob();

    // Act
    const res = await answer(job.id, cookie, false);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jobState: 'accepted', arrivalClaim: null });
    const stored = (await jobsRepo.findById(job.id))!;
    expect(stored.state).toBe('accepted');
    expect(stored.arrivalClaim).toBeUndefined();
    expect(await findSchedule(timerNames.arrival(job.id, worker.id))).toBeDefined();
    const told = await proTold(worker.id, 'Arrival not confirmed');
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain('Press Mark Arrived again once you are at the door');
  });

  it('leaves exactly one result when the customer confirms twice at once', async () => {
    // Prepare
    const { job, worker, cookie, claimedAt } = await claimedJob();

    // Act
    const both = await Promise.all([answer(job.id, cookie, true), answer(job.id, cookie, true)]);

    // Assess: both see it arrived; it was recorded, and the pro told, once.
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(both.map((r) => r.body.jobState)).toEqual(['arrived', 'arrived']);
    expect((await jobsRepo.findById(job.id))?.arrivedAt).toBe(claimedAt);
    expect(await proTold(worker.id, 'Arrival confirmed')).toHaveLength(1);
  });

  it('leaves exactly one result when the customer confirms while the arrival timer fires', async () => {
    // Prepare: the deadline and the time to answer are over; the claim still waits.
    const { job, worker, cookie } = await claimedJob(true);

    // Act
    const [res] = await Promise.all([answer(job.id, cookie, true), enforceArrival({ jobId: job.id, workerId: worker.id })]);

    // Assess: either the customer's yes counted and no strike was given, or the timer won and the yes was refused.
    const stored = (await jobsRepo.findById(job.id))!;
    const strikes = (await workersRepo.findById(worker.id))!.strikes;
    if (res.status === 200) {
      expect([stored.state, stored.acceptedBy, strikes]).toEqual(['arrived', worker.id, 0]);
    } else {
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('Your pro did not arrive in time, so we are finding you another one.');
      expect([stored.acceptedBy, stored.reassignedCount, strikes]).toEqual([null, 1, 1]);
    }
  });

  it('refuses a yes with 409 when the pro has not claimed to arrive, and changes nothing', async () => {
    // Prepare: the customer already said not yet.
    const { job, cookie } = await claimedJob();
    await answer(job.id, cookie, false);

    // Act
    const res = await answer(job.id, cookie, true);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Your pro has not said they have arrived yet.');
    expect((await jobsRepo.findById(job.id))?.state).toBe('accepted');
  });

  it("answers 404 to another customer's browser, and changes nothing", async () => {
    // Prepare
    const { job } = await claimedJob();
    const stranger = await markIssued(newId());

    // Act
    const res = await answer(job.id, stranger, true);

    // Assess
    expect(res.status).toBe(404);
    expect((await jobsRepo.findById(job.id))?.arrivalClaim).toBeDefined();
  });
});
