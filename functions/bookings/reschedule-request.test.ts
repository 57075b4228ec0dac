import { describe, expect, it } from 'vitest';
import { handler } from './reschedule-request';
import { handler as cancel } from './cancel-request';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import { notificationsRepo } from '../realtime/data/notifications';
import { workersRepo } from '../workers/data/workers';
import { offerNext, scheduleStartTimers, timerNames } from '../jobs/dispatch';
import { env } from '../common/env';
import { issuedCustomer } from '../testing/customers';
import { atExpression } from '../common/scheduler';
import { dispatchableWorker, findSchedule, testCategory, testJob, testPlace } from '../testing/dispatch';
import { testCrew } from '../testing/crews';
import { CREW_MEMBER_ACTION } from '../jobs/crews';
import { invoke, sampleEvent, withBody, withCookies, withPath } from '../testing/events';
import { ZONED_TIME_MESSAGE } from '../../shared/schemas/estimate';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const sample = sampleEvent('reschedule-request');
const at = (fromNowMs: number) => new Date(Math.round((Date.now() + fromNowMs) / 1000) * 1000).toISOString();
const reschedule = (jobId: string, customerId: string, requestedTime: unknown) =>
  invoke(handler, withCookies(withBody(withPath(sample, { id: jobId }), { requestedTime }), [`customer_id=${customerId}`]));

async function scheduledJob(startInMs: number) {
  const [category, place] = [testCategory(), testPlace()];
  const pro = await dispatchableWorker(category, place);
  const job = await testJob(category, place, { requestedTime: at(startInMs) });
  return { job, pro };
}

async function accepted(job: JobItem, workerId: string): Promise<JobItem> {
  await jobsRepo.addOffers(job, { [workerId]: new Date(Date.now() + 60_000).toISOString() }, new Date().toISOString());
  await jobsRepo.accept({ jobId: job.id, workerId, hourlyRate: 4000, now: new Date().toISOString(), arriveBy: new Date(Date.parse(job.requestedTime!) + 45 * 60_000).toISOString() });
  return (await jobsRepo.findById(job.id))!;
}

describe('POST /api/requests/{id}/reschedule', () => {
  it('moves a waiting job to the new start: new release and reminder timers, the old ones gone', async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    await dispatchableWorker(category, place);
    const old = at(3 * DAY);
    const job = await testJob(category, place, { requestedTime: old });
    await scheduleStartTimers(job);
    const next = at(5 * DAY);

    // Act
    const res = await reschedule(job.id, job.customerId, next);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: job.id, requestedTime: next });
    expect((await jobsRepo.findById(job.id))!).toMatchObject({ requestedTime: next, state: 'booked', offers: {} });
    expect((await findSchedule(timerNames.release(job.id, Date.parse(next))))?.ScheduleExpression).toBe(atExpression(new Date(Date.parse(next) - DAY)));
    expect(await findSchedule(timerNames.reminder(job.id, 'hour', Date.parse(next)))).toBeDefined();
    expect(await findSchedule(timerNames.release(job.id, Date.parse(old)))).toBeUndefined();
    expect(await findSchedule(timerNames.reminder(job.id, 'hour', Date.parse(old)))).toBeUndefined();
  });

  it('keeps the pro who accepted, moves their arrival deadline to the new start and tells them', async () => {
    // Prepare
    const { job, pro } = await scheduledJob(20 * HOUR);
    await accepted(job, pro.id);
    const next = at(2 * DAY);

    // Act
    const res = await reschedule(job.id, job.customerId, next);

    // Assess
    expect(res.status).toBe(200);
    const after = (await jobsRepo.findById(job.id))!;
    const arriveBy = new Date(Date.parse(next) + env.ARRIVAL_GRACE_SECONDS * 1000).toISOString();
    expect(after).toMatchObject({ state: 'accepted', acceptedBy: pro.id, requestedTime: next, arriveBy });
    expect((await findSchedule(timerNames.scheduledArrival(job.id, pro.id, Date.parse(next))))?.ScheduleExpression).toBe(atExpression(new Date(arriveBy)));
    const told = (await notificationsRepo.latest('worker', pro.id)).filter((n) => n.type === 'job_rescheduled' && n.jobId === job.id);
    expect(told).toHaveLength(1);
  });

  it('withdraws offers standing for the old time and offers it again at once when the new start is within a day', async () => {
    const { job, pro } = await scheduledJob(20 * HOUR);
    await offerNext(job.id);
    expect(Object.keys((await jobsRepo.findById(job.id))!.offers)).toEqual([pro.id]);

    const res = await reschedule(job.id, job.customerId, at(3 * DAY));
    const later = (await jobsRepo.findById(job.id))!;
    expect(res.status).toBe(200);
    expect(later).toMatchObject({ state: 'booked', offers: {}, tried: [] });
    expect(await jobsRepo.offeredJobIds(pro.id)).not.toContain(job.id);

    await reschedule(job.id, job.customerId, at(10 * HOUR));
    expect(Object.keys((await jobsRepo.findById(job.id))!.offers)).toEqual([pro.id]);
  });

  it('answers a repeated request as the first, changing nothing more', async () => {
    const { job } = await scheduledJob(3 * DAY);
    const next = at(4 * DAY);
    await reschedule(job.id, job.customerId, next);
    const once = (await jobsRepo.findById(job.id))!;

    const again = await reschedule(job.id, job.customerId, next);

    expect(again.status).toBe(200);
    expect((await jobsRepo.findById(job.id))!.version).toBe(once.version);
  });

  it('is refused with 409 once the pro is on the way, saying what to do', async () => {
    const { job, pro } = await scheduledJob(20 * HOUR);
    await accepted(job, pro.id);
    await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'accepted', to: 'en_route', stamp: 'enRouteAt', now: new Date().toISOString() });

    const res = await reschedule(job.id, job.customerId, at(2 * DAY));

    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/already on the way.*Call them/);
    expect((await jobsRepo.findById(job.id))!.requestedTime).toBe(job.requestedTime);
  });

  it('is refused with 409 for an as-soon-as-possible request and for a cancelled one', async () => {
    const [category, place] = [testCategory(), testPlace()];
    const asap = await testJob(category, place);
    const { job: cancelled } = await scheduledJob(3 * DAY);
    await jobsRepo.cancel(cancelled.id, cancelled.customerId, new Date().toISOString());

    const [a, c] = [await reschedule(asap.id, asap.customerId, at(DAY)), await reschedule(cancelled.id, cancelled.customerId, at(DAY))];

    expect(a.status).toBe(409);
    expect(a.body.message).toMatch(/as soon as possible/);
    expect(c.status).toBe(409);
    expect(c.body.message).toMatch(/cancelled/);
  });

  it('refuses a time in the past or more than 14 days ahead, with 400 saying what to choose', async () => {
    const { job } = await scheduledJob(3 * DAY);

    const answers = await Promise.all([at(-HOUR), at(15 * DAY)].map((t) => reschedule(job.id, job.customerId, t)));

    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/Choose a time within the next 14 days/);
    }
    expect((await jobsRepo.findById(job.id))!.requestedTime).toBe(job.requestedTime);
  });

  it('refuses what is not a time, or a time without its zone, on its field', async () => {
    const { job } = await scheduledJob(3 * DAY);

    const answers = await Promise.all(['next tuesday', at(4 * DAY).replace(/\.\d{3}Z$/, '')].map((t) => reschedule(job.id, job.customerId, t)));

    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.fields.requestedTime).toBe(ZONED_TIME_MESSAGE);
    }
    expect((await jobsRepo.findById(job.id))!.requestedTime).toBe(job.requestedTime);
  });

  it("answers another customer's request as a missing one", async () => {
    const { job } = await scheduledJob(3 * DAY);

    const stranger = await issuedCustomer();

    const res = await reschedule(job.id, stranger.customerId, at(4 * DAY));

    expect(res.status).toBe(404);
    expect((await jobsRepo.findById(job.id))!.requestedTime).toBe(job.requestedTime);
  });
});

describe('cancelling a scheduled job a pro accepted', () => {
  it('frees and tells the pro, and leaves its reminders nothing to send', async () => {
    // Prepare
    const { job, pro } = await scheduledJob(20 * HOUR);
    await accepted(job, pro.id);

    // Act
    const res = await invoke(cancel, withCookies(withPath(sampleEvent('cancel-request'), { id: job.id }), [`customer_id=${job.customerId}`]));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jobState: 'cancelled', canCancel: false });
    expect((await workersRepo.findById(pro.id))!.activeJobId).toBeUndefined();
    const told = (await notificationsRepo.latest('worker', pro.id)).filter((n) => n.type === 'job_cancelled' && n.jobId === job.id);
    expect(told).toHaveLength(1);
    expect(await jobsRepo.markReminded(job.id, 'hour', job.requestedTime!, new Date().toISOString())).toBeUndefined();
  });
});

describe('POST /api/requests/{id}/reschedule: a crew', () => {
  it('moves every pro of the request to the new start, each with its own release timer', async () => {
    // Prepare: a crew of two starting in three days, one of them held by a pro
    const [category, place] = [testCategory(), testPlace()];
    const pro = await dispatchableWorker(category, place);
    const crew = await testCrew(category, place, 2, { requestedTime: at(3 * DAY) });
    for (const job of crew) await scheduleStartTimers(job);
    await accepted(crew[1]!, pro.id);
    const later = at(4 * DAY);

    // Act
    const res = await reschedule(crew[0]!.id, crew[0]!.customerId, later);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.requestedTime).toBe(later);
    const [lead, member] = await Promise.all(crew.map((j) => jobsRepo.findById(j.id)));
    expect(lead!.requestedTime).toBe(later);
    expect(member).toMatchObject({ requestedTime: later, state: 'accepted', acceptedBy: pro.id });
    expect(Date.parse(member!.arriveBy!)).toBe(Date.parse(later) + env.ARRIVAL_GRACE_SECONDS * 1000);
    expect(await findSchedule(timerNames.release(lead!.id, Date.parse(later)))).toBeDefined();
    expect(await findSchedule(timerNames.release(member!.id, Date.parse(later)))).toBeDefined();
  });

  it('moves nothing while a pro of the request is on the way', async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const pro = await dispatchableWorker(category, place);
    const crew = await testCrew(category, place, 2, { requestedTime: at(2 * HOUR) });
    await accepted(crew[1]!, pro.id);
    await jobsRepo.advance({ jobId: crew[1]!.id, workerId: pro.id, from: 'accepted', to: 'en_route', stamp: 'enRouteAt', now: new Date().toISOString() });

    // Act
    const res = await reschedule(crew[0]!.id, crew[0]!.customerId, at(3 * DAY));

    // Assess
    expect(res.status).toBe(409);
    expect((await jobsRepo.findById(crew[0]!.id))!.requestedTime).toBe(crew[0]!.requestedTime);
  });

  it("refuses a member's own id, pointing to the request's page", async () => {
    const [, member] = await testCrew(testCategory(), testPlace(), 2, { requestedTime: at(3 * DAY) });

    const res = await reschedule(member!.id, member!.customerId, at(4 * DAY));

    expect(res.status).toBe(409);
    expect(res.body.message).toBe(CREW_MEMBER_ACTION);
  });
});
