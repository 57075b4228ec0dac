import { describe, expect, it } from 'vitest';
import { handler } from './send-job-reminder';
import { jobsRepo, type JobItem } from './data/jobs';
import { notificationsRepo } from '../realtime/data/notifications';
import { takenBy, testCrew } from '../testing/crews';
import { dispatchableWorker, testCategory, testJob, testPlace } from '../testing/dispatch';

const HOUR = 3_600_000;

async function acceptedScheduledJob(startInMs = 2 * HOUR): Promise<{ job: JobItem; workerId: string }> {
  const [category, place] = [testCategory(), testPlace()];
  const pro = await dispatchableWorker(category, place);
  const start = new Date(Date.now() + startInMs).toISOString();
  const job = await testJob(category, place, { requestedTime: start });
  await jobsRepo.addOffers(job, { [pro.id]: new Date(Date.now() + 60_000).toISOString() }, new Date().toISOString());
  await jobsRepo.accept({ jobId: job.id, workerId: pro.id, hourlyRate: 4000, now: new Date().toISOString(), arriveBy: new Date(Date.parse(start) + 45 * 60_000).toISOString() });
  return { job: (await jobsRepo.findById(job.id))!, workerId: pro.id };
}

const reminders = async (role: 'customer' | 'worker', id: string, jobId: string) =>
  (await notificationsRepo.latest(role, id)).filter((n) => n.type === 'job_reminder' && n.jobId === jobId);

describe('send-job-reminder (timer)', () => {
  it('reminds the customer and the pro who accepted, as high-priority notifications (pushed)', async () => {
    // Prepare
    const { job, workerId } = await acceptedScheduledJob();

    // Act
    await handler({ jobId: job.id, start: job.requestedTime, kind: 'hour' });

    // Assess
    const [customer] = await reminders('customer', job.customerId, job.id);
    const [pro] = await reminders('worker', workerId, job.id);
    expect(customer).toMatchObject({ title: 'Your Plumbing is in an hour', priority: 'high', actionUrl: `/track#id=${job.id}` });
    expect(pro).toMatchObject({ title: 'Job in an hour: Plumbing', priority: 'high', actionUrl: `/worker/jobs/${job.id}` });
    expect((await jobsRepo.findById(job.id))!.hourReminderSentFor).toBe(job.requestedTime);
  });

  it('sends each reminder once when its timer is delivered twice, even at the same moment', async () => {
    const { job, workerId } = await acceptedScheduledJob();
    const input = { jobId: job.id, start: job.requestedTime, kind: 'day' };

    await Promise.all([handler(input), handler(input)]);
    await handler(input);

    expect(await reminders('customer', job.customerId, job.id)).toHaveLength(1);
    expect(await reminders('worker', workerId, job.id)).toHaveLength(1);
  });

  it('does nothing for a start the job no longer has, or for a job cancelled meanwhile', async () => {
    const { job, workerId } = await acceptedScheduledJob();
    const [category, place] = [testCategory(), testPlace()];
    const cancelled = await testJob(category, place, { requestedTime: new Date(Date.now() + 5 * HOUR).toISOString() });
    await jobsRepo.cancel(cancelled.id, cancelled.customerId, new Date().toISOString());

    await handler({ jobId: job.id, start: new Date(Date.parse(job.requestedTime!) - HOUR).toISOString(), kind: 'hour' });
    await handler({ jobId: cancelled.id, start: cancelled.requestedTime, kind: 'hour' });

    expect(await reminders('customer', job.customerId, job.id)).toEqual([]);
    expect(await reminders('worker', workerId, job.id)).toEqual([]);
    expect(await reminders('customer', cancelled.customerId, cancelled.id)).toEqual([]);
  });

  it('reminds only the customer while no pro has accepted yet', async () => {
    const [category, place] = [testCategory(), testPlace()];
    const job = await testJob(category, place, { requestedTime: new Date(Date.now() + 25 * HOUR).toISOString() });

    await handler({ jobId: job.id, start: job.requestedTime, kind: 'day' });

    const [customer] = await reminders('customer', job.customerId, job.id);
    expect(customer?.message).toMatch(/we are finding your pro/);
  });

  it('reminds each pro of a crew of their own job and the customer once, from the request they follow', async () => {
    // Prepare: a crew of two for a start in two hours, each job taken by its own pro
    const [category, place] = [testCategory(), testPlace()];
    const start = new Date(Date.now() + 2 * HOUR).toISOString();
    const [lead, member] = await testCrew(category, place, 2, { requestedTime: start });
    const [first, second] = [await dispatchableWorker(category, place), await dispatchableWorker(category, place)];
    await takenBy(lead!, first.id);
    await takenBy(member!, second.id);

    // Act: each job's own timer fires
    await handler({ jobId: lead!.id, start, kind: 'hour' });
    await handler({ jobId: member!.id, start, kind: 'hour' });

    // Assess
    const customer = (await notificationsRepo.latest('customer', lead!.customerId)).filter((n) => n.type === 'job_reminder');
    expect(customer).toHaveLength(1);
    expect(customer[0]).toMatchObject({ jobId: lead!.id, actionUrl: `/track#id=${lead!.id}` });
    expect(await reminders('worker', first.id, lead!.id)).toHaveLength(1);
    expect(await reminders('worker', second.id, member!.id)).toHaveLength(1);
  });

  it('drops an input with an unknown reminder', async () => {
    const { job } = await acceptedScheduledJob();

    await handler({ jobId: job.id, start: job.requestedTime, kind: 'week' });

    expect(await reminders('customer', job.customerId, job.id)).toEqual([]);
  });
});
