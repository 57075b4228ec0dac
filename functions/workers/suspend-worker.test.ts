import { describe, expect, it } from 'vitest';
import { counter } from '../../shared/entities';
import { handler as enforceArrival } from '../arrival/enforce-arrival';
import { sessions } from '../common/auth/sessions';
import { isDispatchable } from '../jobs/data/dispatch-index';
import { jobHistory, ownerActor, systemActor } from '../jobs/data/job-history';
import { jobsRepo } from '../jobs/data/jobs';
import { notificationsRepo } from '../realtime/data/notifications';
import { penaltiesRepo } from '../arrival/data/penalties';
import { stats } from '../owner/data/stats';
import { workerAdmin } from './data/worker-admin';
import { workersRepo, type WorkerItem } from './data/workers';
import { scheduleArrival, timerNames } from '../jobs/dispatch';
import { newId } from '../common/ids';
import { acceptedJob, clockOn, privateDay, sentJob, settleCounts } from '../testing/analytics';
import { asOwner } from '../testing/applications';
import { dispatchableWorker, findSchedule, north, offeredJob } from '../testing/dispatch';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { strikablePro } from '../testing/strikes';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';
import { handler as setAvailability } from './set-availability';
import { handler } from './suspend-worker';

const REASON = 'A customer reported damage; suspended while we look into it.';
const suspend = async (id: string, body: unknown = { reason: REASON }) => invoke(handler, withBody(await asOwner('suspend-worker', { id }), body));

describe('POST /api/admin/workers/{id}/suspend', () => {
  it('suspends an active pro: off call, out of dispatch, signed out, and told why', async () => {
    // Prepare
    const pro = await strikablePro();
    const { secret } = await sessions.start('worker', pro.id, pro.email);

    // Act
    const res = await suspend(pro.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: pro.id, status: 'suspended', isAvailable: false, statusReason: REASON });
    const after = await workersRepo.findById(pro.id);
    expect(after).toMatchObject({ status: 'suspended', isAvailable: false, dispatchEntries: [] });
    expect(isDispatchable(after!)).toBe(false);
    expect(await sessions.find(secret)).toBeUndefined();
    const [notice] = await notificationsRepo.latest('worker', pro.id);
    expect(notice).toMatchObject({ title: 'Account suspended', message: expect.stringContaining(REASON) });
  });

  it('leaves a suspended pro unable to go on call, with the reason why', async () => {
    // Prepare
    const pro = await createTestWorker();
    await suspend(pro.id);
    const token = await workerToken(pro.id);

    // Act
    const res = await invoke(setAvailability, withBody(withBearer(sampleEvent('set-availability'), token), { isAvailable: true }));

    // Assess
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/suspended/);
  });

  it('refuses a pro who is already suspended with 409', async () => {
    const pro = await createTestWorker();
    await suspend(pro.id);

    const again = await suspend(pro.id);

    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Only an active worker can be suspended.');
  });

  it('of two owners suspending at once, suspends once and refuses the other', async () => {
    const pro = await createTestWorker();

    const answers = await Promise.all([suspend(pro.id), suspend(pro.id, { reason: 'Another reason.' })]);

    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });

  it('refuses a missing reason with 400', async () => {
    const pro = await createTestWorker();

    const res = await suspend(pro.id, {});

    expect(res.status).toBe(400);
    expect((await workersRepo.findById(pro.id))?.status).toBe('active');
  });

  it('answers 404 for an unknown worker', async () => {
    expect((await suspend(newId())).status).toBe(404);
  });
});

/**
 * A pro on call who accepted a job near them, with `arriveInMs` left to arrive (negative: the
 * deadline passed), and another pro of the trade on call nearby for the next round.
 */
async function heldJob(arriveInMs = 45 * 60_000) {
  const pro = await strikablePro();
  const category = pro.categories[0]!;
  const place = { lat: pro.location!.lat, lng: pro.location!.lng };
  const next = await dispatchableWorker(category, north(place, 2));
  const offered = await offeredJob(category, [pro.id], 120, north(place, 1));
  const now = Date.now();
  const arriveBy = new Date(now + arriveInMs).toISOString();
  await jobsRepo.accept({ jobId: offered.id, workerId: pro.id, hourlyRate: 4000, now: new Date(now - 60_000).toISOString(), arriveBy });
  return { pro, next, job: (await jobsRepo.findById(offered.id))! };
}

/** The job's history steps of one type. */
const stepsOf = async (jobId: string, type: string) => (await jobHistory.list(jobId)).filter((e) => e.type === type);

const proofAt = (pro: WorkerItem) => ({ method: 'location' as const, lat: pro.location!.lat, lng: pro.location!.lng, accuracy: 5, distanceM: 10, at: new Date().toISOString() });

describe('POST /api/admin/workers/{id}/suspend, while the pro holds a job', () => {
  it('sends an accepted job back to dispatch at once, without a strike, as the owner\'s step in its history', async () => {
    // Prepare
    const { pro, next, job } = await heldJob();
    await scheduleArrival(job.id, pro.id, job.arriveBy!);

    // Act
    const res = await suspend(pro.id);

    // Assess: the job searches again and is offered to the next pro; the suspended pro holds nothing and has no strike.
    expect(res.status).toBe(200);
    const after = await jobsRepo.findById(job.id);
    expect(after).toMatchObject({ state: 'offered', dispatch: 'searching', acceptedBy: null, arriveBy: null, reassignedCount: 1 });
    expect(Object.keys(after!.offers)).toEqual([next.id]);
    const worker = await workersRepo.findById(pro.id);
    expect(worker).toMatchObject({ status: 'suspended', strikes: 0 });
    expect(worker?.activeJobId).toBeUndefined();
    expect(await penaltiesRepo.listOf(pro.id)).toEqual([]);
    expect(await stepsOf(job.id, 'strike')).toEqual([]);
    const [released] = await stepsOf(job.id, 'reassigned');
    expect(released).toMatchObject({ workerId: pro.id, actor: { role: 'owner' }, detail: 'Back to dispatch: the owner suspended the pro (no strike).' });
    expect(await findSchedule(timerNames.arrival(job.id, pro.id))).toBeUndefined();
    const customerNotices = await notificationsRepo.latest('customer', job.customerId);
    expect(customerNotices).toContainEqual(expect.objectContaining({ title: 'Finding you a new pro', jobId: job.id }));
    const proNotices = await notificationsRepo.latest('worker', pro.id);
    expect(proNotices).toContainEqual(expect.objectContaining({ title: 'Job released', message: expect.stringContaining('not a strike') }));
  });

  it('leaves the arrival timer that fires afterwards nothing to do: no strike, the job untouched', async () => {
    // Prepare: the deadline has passed, but the owner suspends the pro before the timer fires.
    const { pro, job } = await heldJob(-1000);
    await suspend(pro.id);
    const released = (await jobsRepo.findById(job.id))!;

    // Act
    await enforceArrival({ jobId: job.id, workerId: pro.id });

    // Assess
    expect((await jobsRepo.findById(job.id))?.version).toBe(released.version);
    expect(await penaltiesRepo.listOf(pro.id)).toEqual([]);
    expect(await workersRepo.findById(pro.id)).toMatchObject({ status: 'suspended', strikes: 0, statusReason: REASON });
    expect(await stepsOf(job.id, 'strike')).toEqual([]);
    expect(await stepsOf(job.id, 'reassigned')).toHaveLength(1);
  });

  it('after the arrival timer reassigned the job first, suspends with the strike the timer gave and releases nothing more', async () => {
    // Prepare
    const { pro, job } = await heldJob(-1000);
    await enforceArrival({ jobId: job.id, workerId: pro.id });

    // Act
    const res = await suspend(pro.id);

    // Assess
    expect(res.status).toBe(200);
    expect(await workersRepo.findById(pro.id)).toMatchObject({ status: 'suspended', strikes: 1, statusReason: REASON });
    expect(await penaltiesRepo.listOf(pro.id)).toHaveLength(1);
    expect(await stepsOf(job.id, 'reassigned')).toEqual([expect.objectContaining({ actor: systemActor })]);
    expect((await jobsRepo.findById(job.id))?.reassignedCount).toBe(1);
  });

  it('of the arrival timer and the suspension at once, leaves one outcome and at most the strike the timer was entitled to', async () => {
    // Prepare: a few pros past their deadline, so either order of the two is likely met.
    const held = await Promise.all([heldJob(-1000), heldJob(-1000), heldJob(-1000)]);

    // Act
    const answers = await Promise.all(held.map(({ pro, job }) => Promise.all([suspend(pro.id), enforceArrival({ jobId: job.id, workerId: pro.id })])));

    // Assess: suspended either way; the job went back to dispatch once, by whichever landed first.
    for (const [index, { pro, job }] of held.entries()) {
      expect(answers[index]![0].status).toBe(200);
      const worker = await workersRepo.findById(pro.id);
      expect(worker).toMatchObject({ status: 'suspended', statusReason: REASON });
      expect(worker?.activeJobId).toBeUndefined();
      const strikes = await penaltiesRepo.listOf(pro.id);
      expect(strikes.length).toBeLessThanOrEqual(1);
      expect(worker?.strikes).toBe(strikes.length);
      const after = await jobsRepo.findById(job.id);
      expect(after).toMatchObject({ acceptedBy: null, reassignedCount: 1 });
      const reassigned = await stepsOf(job.id, 'reassigned');
      expect(reassigned).toHaveLength(1);
      // The timer's reassignment comes with its strike; the owner's with none.
      expect(reassigned[0]!.actor.role).toBe(strikes.length === 1 ? 'system' : 'owner');
      expect(await stepsOf(job.id, 'strike')).toHaveLength(strikes.length);
    }
  });

  it('releases a job the pro has arrived at, their proof of arrival going with them', async () => {
    // Prepare
    const { pro, job } = await heldJob();
    await jobsRepo.arrive({ jobId: job.id, workerId: pro.id, from: 'accepted', evidence: proofAt(pro), now: new Date().toISOString(), arriveBy: job.arriveBy });

    // Act
    const res = await suspend(pro.id);

    // Assess
    expect(res.status).toBe(200);
    const after = await jobsRepo.findById(job.id);
    expect(after).toMatchObject({ dispatch: 'searching', acceptedBy: null, arrivedAt: null, reassignedCount: 1 });
    expect(after?.arrivalEvidence).toBeUndefined();
    expect(['booked', 'offered']).toContain(after?.state);
    expect((await workersRepo.findById(pro.id))?.activeJobId).toBeUndefined();
  });

  it('leaves work in progress with the pro, for the owner to settle', async () => {
    // Prepare
    const { pro, job } = await heldJob();
    await jobsRepo.arrive({ jobId: job.id, workerId: pro.id, from: 'accepted', evidence: proofAt(pro), now: new Date().toISOString(), arriveBy: job.arriveBy });
    await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: new Date().toISOString() });

    // Act
    const res = await suspend(pro.id);

    // Assess
    expect(res.status).toBe(200);
    expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'in_progress', acceptedBy: pro.id, reassignedCount: 0 });
    expect(await workersRepo.findById(pro.id)).toMatchObject({ status: 'suspended', activeJobId: job.id });
    expect(await stepsOf(job.id, 'reassigned')).toEqual([]);
  });

  it('of an accept and the suspension at once, never leaves a suspended pro holding the job', async () => {
    // Prepare
    const pro = await strikablePro();
    const job = await offeredJob(pro.categories[0]!, [pro.id], 120, north({ lat: pro.location!.lat, lng: pro.location!.lng }, 1));
    const now = Date.now();
    const accept = jobsRepo
      .accept({ jobId: job.id, workerId: pro.id, hourlyRate: 4000, now: new Date(now).toISOString(), arriveBy: new Date(now + 45 * 60_000).toISOString() })
      .catch(() => 'refused');

    // Act
    const [res] = await Promise.all([suspend(pro.id), accept]);

    // Assess
    expect(res.status).toBe(200);
    const worker = await workersRepo.findById(pro.id);
    expect(worker?.status).toBe('suspended');
    expect(worker?.activeJobId).toBeUndefined();
    expect((await jobsRepo.findById(job.id))?.acceptedBy).toBeNull();
  });

  it('counts no arrival for the released job: the pro did not fail to arrive', async () => {
    // Prepare: a day of its own, so the counters read are this test's alone.
    const day = privateDay();
    const at = clockOn(day);
    const pro = await strikablePro();
    const job = await sentJob(pro.categories[0]!, null, at);
    await acceptedJob(job, pro, at, 1, 2);
    const owner = { id: 'owner', username: 'owner' };

    // Act
    const { released } = await workerAdmin.changeStatus(pro.id, 'suspend', { reason: REASON, by: owner.username, actor: ownerActor(owner), now: at(60) });

    // Assess
    expect(released?.id).toBe(job.id);
    await settleCounts();
    const [item] = await stats.days(day, day);
    expect(item?.[counter.arrivedLate]).toBeUndefined();
    expect(item?.[counter.arrivedOnTime]).toBeUndefined();
    expect(item?.[counter.funnel('accepted')]).toBe(1);
  });
});
