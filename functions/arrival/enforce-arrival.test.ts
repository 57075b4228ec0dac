import { describe, expect, it } from 'vitest';
import { handler, SUSPENDED_BY_STRIKES } from './enforce-arrival';
import { jobHistory, systemActor } from '../jobs/data/job-history';
import { jobLocationsRepo } from '../jobs/data/job-locations';
import { penaltiesRepo } from './data/penalties';
import type { WorkerItem } from '../workers/data/workers';
import { decideStrike } from './strikes';
import { lateArrival, strikablePro } from '../testing/strikes';
import { jobsRepo } from '../jobs/data/jobs';
import { workersRepo } from '../workers/data/workers';
import { timerNames } from '../jobs/dispatch';
import { atExpression } from '../common/scheduler';
import { ARRIVAL_ANSWER_GRACE_SECONDS } from '../../shared/domain/arrival';
import { dispatchableWorker, findSchedule, north, offeredJob, testCategory, testPlace } from '../testing/dispatch';
import { mailsTo, outboxRecord } from '../testing/mail';
import { handler as sendMail } from '../mail/send-mail';
import { paths } from '../../web/src/lib/paths';

/** A job near `pro` that they accepted, with an arriveBy already past. */
async function overdueJobFor(pro: WorkerItem) {
  const place = { lat: pro.location!.lat, lng: pro.location!.lng };
  const job = await offeredJob(pro.categories[0]!, [pro.id], 120, north(place, 3));
  const now = Date.now();
  await jobsRepo.accept({ jobId: job.id, workerId: pro.id, hourlyRate: 4000, now: new Date(now - 60_000).toISOString(), arriveBy: new Date(now - 1000).toISOString() });
  return { job };
}

/** A job that `late` accepted with an arriveBy already past (the grace ran out). */
async function overdueJob(strikes = 0) {
  const [category, place] = [testCategory(), testPlace()];
  const late = await dispatchableWorker(category, north(place, 1), { strikes });
  const next = await dispatchableWorker(category, north(place, 2));
  const job = await offeredJob(category, [late.id], 120, place);
  const now = Date.now();
  await jobsRepo.accept({ jobId: job.id, workerId: late.id, hourlyRate: 4000, now: new Date(now - 60_000).toISOString(), arriveBy: new Date(now - 1000).toISOString() });
  return { job, late, next };
}

describe('enforce-arrival (timer)', () => {
  it('sends the job back to dispatch without the late worker, who gets a strike', async () => {
    // Prepare
    const { job, late, next } = await overdueJob();

    // Act
    await handler({ jobId: job.id, workerId: late.id });

    // Assess
    const after = await jobsRepo.findById(job.id);
    expect(after).toMatchObject({ state: 'offered', acceptedBy: null, reassignedCount: 1, dispatch: 'searching' });
    expect(Object.keys(after!.offers)).toEqual([next.id]);
    const worker = await workersRepo.findById(late.id);
    expect(worker).toMatchObject({ strikes: 1, status: 'active' });
    expect(worker?.activeJobId).toBeUndefined();
    expect(await jobsRepo.listHeldBy(late.id)).toEqual([]);
  });

  it('suspends the worker at the second strike, pending the owner, and takes them out of dispatch', async () => {
    const { job, late } = await overdueJob(1);

    await handler({ jobId: job.id, workerId: late.id });

    const worker = await workersRepo.findById(late.id);
    expect(worker).toMatchObject({ strikes: 2, status: 'suspended', isAvailable: false, dispatchEntries: [], statusReason: SUSPENDED_BY_STRIKES, statusChangedBy: 'system' });
    const [strike] = await penaltiesRepo.listOf(late.id);
    expect(strike).toMatchObject({ jobId: job.id, status: 'standing' });
  });

  it('records the strike with its evidence, and the strike and the reassignment in the job\'s history, in the same write', async () => {
    // Prepare: after the fix they shared with dispatch, the pro shared one with the job's room 2 km from the address.
    const { job, late } = await overdueJob();
    const fixAt = new Date().toISOString();
    const away = north({ lat: job.latitude!, lng: job.longitude! }, 2);
    await jobLocationsRepo.keepLatest({ jobId: job.id, workerId: late.id, ...away, accuracy: 12, at: fixAt, minIntervalMs: 0 });
    const { arriveBy } = (await jobsRepo.findById(job.id))!;

    // Act
    await handler({ jobId: job.id, workerId: late.id });

    // Assess
    const record = await penaltiesRepo.listOf(late.id);
    expect(record).toHaveLength(1);
    expect(record[0]).toMatchObject({
      workerId: late.id,
      jobId: job.id,
      reason: 'late_arrival',
      status: 'standing',
      appealNote: null,
      decisionNote: null,
      evidence: { arriveBy, lastFix: { ...away, accuracy: 12, at: fixAt, source: 'job' }, jobHasPosition: true, claim: null },
    });
    expect(record[0]!.evidence.distanceM).toBeGreaterThan(1900);
    expect(record[0]!.evidence.distanceM).toBeLessThan(2100);
    const history = await jobHistory.list(job.id);
    expect(history.filter((e) => e.type === 'strike')).toEqual([expect.objectContaining({ workerId: late.id, actor: systemActor, detail: 'Late arrival: strike 1 of 2.' })]);
    expect(history.filter((e) => e.type === 'reassigned')).toHaveLength(1);
  });

  it('gives the strike on the count as it is when an owner voids another strike of the same pro at that moment', async () => {
    // Prepare: the pro has one strike on record; the timer of a second late job reads their count.
    const pro = await strikablePro();
    const first = await lateArrival(pro);
    const { job } = await overdueJobFor(pro);
    const owner = { id: 'owner', username: 'owner' };

    // Act: the void and the timer race.
    await Promise.all([decideStrike(first.id, 'void', 'Traffic closure confirmed.', owner), handler({ jobId: job.id, workerId: pro.id })]);

    // Assess: one strike voided, one standing, and the count says one.
    const record = await penaltiesRepo.listOf(pro.id);
    expect(record.map((p) => p.status).sort()).toEqual(['standing', 'voided']);
    expect((await workersRepo.findById(pro.id))?.strikes).toBe(1);
  });

  it('offers the job again to a worker who was offered it alongside the late one', async () => {
    // Prepare: both offered at once; the late one accepted first.
    const [category, place] = [testCategory(), testPlace()];
    const late = await dispatchableWorker(category, north(place, 1));
    const other = await dispatchableWorker(category, north(place, 2));
    const job = await offeredJob(category, [late.id, other.id], 120, place);
    const now = Date.now();
    await jobsRepo.accept({ jobId: job.id, workerId: late.id, hourlyRate: 4000, now: new Date(now - 60_000).toISOString(), arriveBy: new Date(now - 1000).toISOString() });

    // Act
    await handler({ jobId: job.id, workerId: late.id });

    // Assess
    const after = await jobsRepo.findById(job.id);
    expect(Object.keys(after!.offers)).toEqual([other.id]);
    expect(after!.tried).toEqual([late.id, other.id]);
  });

  it('changes nothing when fired twice: one strike, one reassignment', async () => {
    const { job, late } = await overdueJob();
    await handler({ jobId: job.id, workerId: late.id });
    const once = await jobsRepo.findById(job.id);

    await handler({ jobId: job.id, workerId: late.id });

    expect((await workersRepo.findById(late.id))?.strikes).toBe(1);
    expect(await jobsRepo.findById(job.id)).toEqual(once);
    expect(await penaltiesRepo.listOf(late.id)).toHaveLength(1);
    expect((await jobHistory.list(job.id)).filter((e) => e.type === 'strike')).toHaveLength(1);
  });

  it('changes nothing when fired twice at once: one strike', async () => {
    const { job, late } = await overdueJob();

    await Promise.all([handler({ jobId: job.id, workerId: late.id }), handler({ jobId: job.id, workerId: late.id })]);

    expect((await workersRepo.findById(late.id))?.strikes).toBe(1);
    expect(await penaltiesRepo.listOf(late.id)).toHaveLength(1);
  });

  it('changes nothing when the worker arrived in time', async () => {
    const { job, late } = await overdueJob();
    await jobsRepo.advance({ jobId: job.id, workerId: late.id, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now: new Date().toISOString() });
    const arrived = await jobsRepo.findById(job.id);

    await handler({ jobId: job.id, workerId: late.id });

    expect(await jobsRepo.findById(job.id)).toEqual(arrived);
    expect((await workersRepo.findById(late.id))?.strikes).toBe(0);
  });

  it('strikes and reassigns even while the pro\'s claim of arrival waits for the customer, once the time to answer it is over', async () => {
    // Prepare: the pro claimed to arrive 10 minutes ago (no fix proved it); nobody confirmed.
    const { job, late } = await overdueJob();
    await jobsRepo.claimArrival({ jobId: job.id, from: 'accepted', claim: { workerId: late.id, claimedAt: new Date(Date.now() - 600_000).toISOString(), reason: 'too-far', distanceM: 900 }, now: new Date().toISOString() });

    // Act
    await handler({ jobId: job.id, workerId: late.id });

    // Assess: reassigned as without a claim, and the claim went with the pro.
    const after = (await jobsRepo.findById(job.id))!;
    expect(after).toMatchObject({ acceptedBy: null, reassignedCount: 1 });
    expect(after.arrivalClaim).toBeUndefined();
    expect((await workersRepo.findById(late.id))?.strikes).toBe(1);
  });

  it('gives a claim made just before the deadline a few minutes for the customer to answer, once, and strikes after them', async () => {
    // Prepare: the deadline passed a second ago; the pro claimed to arrive 30 s before it.
    const { job, late } = await overdueJob();
    const { arriveBy } = (await jobsRepo.findById(job.id))!;
    const claimedAt = Date.parse(arriveBy!) - 30_000;
    const claim = { workerId: late.id, claimedAt: new Date(claimedAt).toISOString(), reason: 'no-fix' as const, distanceM: null };
    await jobsRepo.claimArrival({ jobId: job.id, from: 'accepted', claim, now: new Date().toISOString() });

    // Act: the timer fires at the deadline, twice.
    await handler({ jobId: job.id, workerId: late.id });
    await handler({ jobId: job.id, workerId: late.id });

    // Assess: the job is kept until the answer time is over, with one timer for then.
    const kept = (await jobsRepo.findById(job.id))!;
    expect(kept).toMatchObject({ state: 'accepted', acceptedBy: late.id });
    expect((await workersRepo.findById(late.id))?.strikes).toBe(0);
    const answerTimer = await findSchedule(timerNames.arrivalAnswer(job.id, late.id));
    expect(answerTimer?.ScheduleExpression).toBe(atExpression(new Date(claimedAt + ARRIVAL_ANSWER_GRACE_SECONDS * 1000)));

    // Act: the answer time is over (the claim is that much older) and the timer fires again.
    await jobsRepo.claimArrival({ jobId: job.id, from: 'accepted', claim: { ...claim, claimedAt: new Date(Date.now() - ARRIVAL_ANSWER_GRACE_SECONDS * 1000 - 5000).toISOString() }, now: new Date().toISOString() });
    await handler({ jobId: job.id, workerId: late.id });

    // Assess
    expect((await jobsRepo.findById(job.id))?.acceptedBy).toBeNull();
    expect((await workersRepo.findById(late.id))?.strikes).toBe(1);
  });

  it('changes nothing before arriveBy, and sets itself again for the holder\'s real time (an older timer of the same name fired)', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [worker.id]);
    const arriveBy = new Date(Date.now() + 600_000).toISOString();
    await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: 4000, now: new Date().toISOString(), arriveBy });

    // Act
    await handler({ jobId: job.id, workerId: worker.id });

    // Assess
    expect((await jobsRepo.findById(job.id))?.state).toBe('accepted');
    const again = await findSchedule(timerNames.arrivalAgain(job.id, worker.id));
    expect(again?.ScheduleExpression).toBe(atExpression(new Date(arriveBy)));
    expect(JSON.parse(again!.Target!.Input!)).toEqual({ jobId: job.id, workerId: worker.id });
  });
});

describe('enforce-arrival (timer): the strike mail', () => {
  it('mails the pro once about the strike: the job, the reason, the count and where to appeal, fired twice and delivered twice', async () => {
    // Prepare
    const { job, late } = await overdueJob();

    // Act
    await handler({ jobId: job.id, workerId: late.id });
    await handler({ jobId: job.id, workerId: late.id });
    const [strike, ...more] = await penaltiesRepo.listOf(late.id);
    const record = await outboxRecord('strike-recorded', strike!.id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    expect(more).toEqual([]);
    const mails = await mailsTo(late.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('A strike was recorded on your account');
    expect(mails[0]!.text).toContain(`Hi ${late.fullName},`);
    expect(mails[0]!.text).toContain(`for the ${job.service} job #${job.id.slice(-8).toUpperCase()}: you did not arrive within the arrival time`);
    expect(mails[0]!.text).toContain('You now have 1 of the 2 strikes that suspend an account');
    expect(mails[0]!.text).toContain("appeal it on your dashboard's Strikes tab");
    expect(mails[0]!.text).toContain(`See your strikes: http://localhost:3000${paths.workerDashboard}`);
  });

  it('tells a pro suspended by the strike that they are, and how to appeal', async () => {
    // Prepare
    const { job, late } = await overdueJob(1);

    // Act
    await handler({ jobId: job.id, workerId: late.id });
    const [strike] = await penaltiesRepo.listOf(late.id);
    await sendMail({ Records: [await outboxRecord('strike-recorded', strike!.id)] });

    // Assess
    const [mail] = await mailsTo(late.email);
    expect(mail!.subject).toBe('A strike was recorded and your account is suspended');
    expect(mail!.text).toContain('You now have 2 strikes. At 2 the account is suspended');
    expect(mail!.text).toContain(`Open your dashboard: http://localhost:3000${paths.workerDashboard}`);
  });

  it('writes no mail when the pro arrived in time and no strike is given', async () => {
    // Prepare: the pro proved their arrival before the timer fired
    const { job, late } = await overdueJob();
    await jobsRepo.arrive({
      jobId: job.id,
      workerId: late.id,
      from: 'accepted',
      evidence: { method: 'location', lat: 0, lng: 0, accuracy: 5, distanceM: 10, at: new Date().toISOString() },
      now: new Date().toISOString(),
      arriveBy: (await jobsRepo.findById(job.id))!.arriveBy,
    });

    // Act
    await handler({ jobId: job.id, workerId: late.id });

    // Assess
    expect(await penaltiesRepo.listOf(late.id)).toEqual([]);
    expect(await mailsTo(late.email)).toEqual([]);
  });
});
