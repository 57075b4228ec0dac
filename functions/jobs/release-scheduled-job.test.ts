import { describe, expect, it } from 'vitest';
import { handler as accept } from './accept-job';
import { handler } from './release-scheduled-job';
import { jobHistory } from './data/job-history';
import { createAndDispatch, timerNames } from './dispatch';
import { env } from '../common/env';
import { jobsRepo } from './data/jobs';
import { attentionOf } from '../owner/data/owner-jobs';
import { newId } from '../common/ids';
import { atExpression } from '../common/scheduler';
import { SCHEDULED_OFFER_SECONDS } from './scheduling';
import { dispatchableWorker, findSchedule, newTestJob, testCategory, testJob, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';

const HOUR = 3_600_000;
const startIn = (ms: number) => new Date(Date.now() + ms).toISOString();

const newScheduledJob = (category: string, at: { lat: number; lng: number }, requestedTime: string) => newTestJob(category, at, { requestedTime });

describe('a scheduled job at creation', () => {
  it('is not offered when its start is more than a day away: it waits, with its release and reminder timers made', async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    await dispatchableWorker(category, place);
    const start = startIn(72 * HOUR);
    const job = newScheduledJob(category, place, start);

    // Act
    const created = await createAndDispatch(job);

    // Assess
    expect(created).toMatchObject({ state: 'booked', offers: {}, tried: [], requestedTime: start });
    const startMs = Date.parse(start);
    const release = await findSchedule(timerNames.release(job.id, startMs));
    expect(release?.ScheduleExpression).toBe(atExpression(new Date(startMs - 24 * HOUR)));
    expect(JSON.parse(release!.Target!.Input!)).toEqual({ jobId: job.id, start });
    expect(await findSchedule(timerNames.reminder(job.id, 'day', startMs))).toBeDefined();
    expect(await findSchedule(timerNames.reminder(job.id, 'hour', startMs))).toBeDefined();
  });

  it('is offered at once when its start is less than a day away, each offer standing half an hour', async () => {
    const [category, place] = [testCategory(), testPlace()];
    const pro = await dispatchableWorker(category, place);
    const job = newScheduledJob(category, place, startIn(5 * HOUR));

    const created = await createAndDispatch(job);

    expect(created.state).toBe('offered');
    const expiresIn = Date.parse(created.offers[pro.id]!) - Date.now();
    expect(expiresIn).toBeGreaterThan(env.OFFER_SECONDS * 1000);
    expect(expiresIn).toBeLessThanOrEqual(SCHEDULED_OFFER_SECONDS * 1000);
    expect(await findSchedule(timerNames.release(job.id, Date.parse(job.requestedTime!)))).toBeUndefined();
  });

  it("is not among the owner's jobs searching too long while it waits for its offers to open", async () => {
    const [category, place] = [testCategory(), testPlace()];
    const start = startIn(3 * 24 * HOUR);
    const job = await createAndDispatch(newScheduledJob(category, place, start));

    expect(job.searchingSince).toBe(new Date(Date.parse(start) - 24 * HOUR).toISOString());
    expect(attentionOf(job, Date.now() + 60 * 60_000)).toBeNull();
    expect(attentionOf(job, Date.parse(start) - 23 * HOUR)).toBe('offered_too_long');
  });
});

describe('release-scheduled-job (timer)', () => {
  it('offers the job to the nearest pros of its trade when its offers open', async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const pro = await dispatchableWorker(category, place);
    const start = startIn(24 * HOUR - 60_000);
    const job = await testJob(category, place, { requestedTime: start });

    // Act
    await handler({ jobId: job.id, start });

    // Assess
    const after = (await jobsRepo.findById(job.id))!;
    expect(after.state).toBe('offered');
    expect(Object.keys(after.offers)).toEqual([pro.id]);
  });

  it('has one effect when fired twice: the same offers, one history step per pro', async () => {
    const [category, place] = [testCategory(), testPlace()];
    await dispatchableWorker(category, place);
    await dispatchableWorker(category, place);
    const start = startIn(20 * HOUR);
    const job = await testJob(category, place, { requestedTime: start });
    await handler({ jobId: job.id, start });
    const once = (await jobsRepo.findById(job.id))!;

    await Promise.all([handler({ jobId: job.id, start }), handler({ jobId: job.id, start })]);

    const twice = (await jobsRepo.findById(job.id))!;
    expect(twice.offers).toEqual(once.offers);
    expect(twice.tried).toEqual(once.tried);
    const offered = (await jobHistory.list(job.id)).filter((e) => e.type === 'offered');
    expect(offered).toHaveLength(once.tried.length);
  });

  it('does nothing for a start the job no longer has (rescheduled), or a job cancelled meanwhile', async () => {
    const [category, place] = [testCategory(), testPlace()];
    await dispatchableWorker(category, place);
    const moved = await testJob(category, place, { requestedTime: startIn(5 * 24 * HOUR) });
    const cancelled = await testJob(category, place, { requestedTime: startIn(10 * HOUR) });
    await jobsRepo.cancel(cancelled.id, cancelled.customerId, new Date().toISOString());

    await handler({ jobId: moved.id, start: startIn(10 * HOUR) });
    await handler({ jobId: cancelled.id, start: cancelled.requestedTime! });

    expect((await jobsRepo.findById(moved.id))!).toMatchObject({ state: 'booked', offers: {} });
    expect((await jobsRepo.findById(cancelled.id))!).toMatchObject({ state: 'cancelled', offers: {} });
  });

  it('does not offer a job early when delivered before its offers open', async () => {
    const [category, place] = [testCategory(), testPlace()];
    await dispatchableWorker(category, place);
    const start = startIn(3 * 24 * HOUR);
    const job = await testJob(category, place, { requestedTime: start });

    await handler({ jobId: job.id, start });

    expect((await jobsRepo.findById(job.id))!).toMatchObject({ state: 'booked', offers: {}, tried: [] });
  });

  it('offers it to contract workers off the clock and independents on call, not to an independent off call or a pro holding a job', async () => {
    // Prepare: nobody is clocked in; all are near the job.
    const [category, place] = [testCategory(), testPlace()];
    const offClock = { isClockedIn: false, isAvailable: false, lastClockIn: null };
    const contract = await dispatchableWorker(category, place, { ...offClock, workerType: 'contract' });
    const onCall = await dispatchableWorker(category, place, { ...offClock, isAvailable: true, workerType: 'independent' });
    const offCall = await dispatchableWorker(category, place, { ...offClock, workerType: 'independent' });
    const busy = await dispatchableWorker(category, place, { ...offClock, workerType: 'contract', activeJobId: newId() });
    const start = startIn(20 * HOUR);
    const job = await testJob(category, place, { requestedTime: start });

    // Act
    await handler({ jobId: job.id, start });

    // Assess
    const offered = Object.keys((await jobsRepo.findById(job.id))!.offers);
    expect(offered.sort()).toEqual([contract.id, onCall.id].sort());
    expect(offered).not.toContain(offCall.id);
    expect(offered).not.toContain(busy.id);
  });

  it('drops an input that is not a job and a start', async () => {
    await expect(handler({ jobId: '../etc', start: 'tomorrow' })).resolves.toBeUndefined();
    await expect(handler(null)).resolves.toBeUndefined();
  });

  it('gives the pro who accepts the 45 minutes from the start, not from the accept', async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const pro = await dispatchableWorker(category, place);
    const start = startIn(20 * HOUR);
    const job = await testJob(category, place, { requestedTime: start });
    await handler({ jobId: job.id, start });

    // Act
    const res = await invoke(accept, withBearer(withBody(withPath(sampleEvent('accept-job'), { jobId: job.id }), {}), await workerToken(pro.id)));

    // Assess
    expect(res.status).toBe(200);
    const after = (await jobsRepo.findById(job.id))!;
    expect(after.arriveBy).toBe(new Date(Date.parse(start) + env.ARRIVAL_GRACE_SECONDS * 1000).toISOString());
    expect((await findSchedule(timerNames.arrival(job.id, pro.id)))?.ScheduleExpression).toBe(atExpression(new Date(after.arriveBy!)));
  });
});
