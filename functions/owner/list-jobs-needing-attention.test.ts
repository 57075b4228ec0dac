import { describe, expect, it } from 'vitest';
import { jobEntity } from '../../shared/entities';
import { jobsRepo } from '../jobs/data/jobs';
import { queryAllOf } from '../common/data/query';
import { dispatchableWorker, offeredJob, testCategory, testJob, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent } from '../testing/events';
import { everyRow, noProJob } from '../testing/owner-jobs';
import { handler } from './list-jobs-needing-attention';

const attention = async () => new Map((await everyRow(handler, 'list-jobs-needing-attention')).items.map((row) => [row.id, row.attention]));

/** A job taken by a pro, then moved through the steps to `verified` (approved by its customer). */
async function verifiedJob(category: string) {
  const pro = await dispatchableWorker(category, null);
  const job = await offeredJob(category, [pro.id]);
  const now = () => new Date().toISOString();
  await jobsRepo.accept({ jobId: job.id, workerId: pro.id, hourlyRate: 5000, now: now(), arriveBy: new Date(Date.now() + 3_600_000).toISOString() });
  await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'accepted', to: 'en_route', stamp: 'enRouteAt', now: now() });
  await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'en_route', to: 'arrived', stamp: 'arrivedAt', now: now() });
  await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: now() });
  await jobsRepo.complete({ jobId: job.id, workerId: pro.id, now: now(), totalHours: 1 });
  await jobsRepo.recordVerification({ jobId: job.id, customerId: job.customerId, approved: true, notes: null, now: now() });
  return { job, pro };
}

describe('GET /api/admin/jobs/attention', () => {
  it('lists a job whose search ended with no pro, and not one still being offered in time', async () => {
    // Prepare
    const category = testCategory();
    const unfilled = await noProJob(category);
    const pro = await dispatchableWorker(category, null);
    const fresh = await offeredJob(category, [pro.id]);

    // Act
    const reasons = await attention();

    // Assess
    expect(reasons.get(unfilled.id)).toBe('no_pro');
    expect(reasons.has(fresh.id)).toBe(false);
  });

  it('lists a search going on for more than 10 minutes and a pro past their arrival deadline', async () => {
    // Prepare
    const category = testCategory();
    const longAgo = new Date(Date.now() - 15 * 60_000).toISOString();
    const slow = await testJob(category, testPlace(), { createdAt: longAgo });
    const pro = await dispatchableWorker(category, null);
    await jobsRepo.addOffers(slow, { [pro.id]: new Date(Date.now() + 60_000).toISOString() }, new Date().toISOString());
    const late = await offeredJob(category, [(await dispatchableWorker(category, null)).id]);
    const now = new Date().toISOString();
    await jobsRepo.accept({ jobId: late.id, workerId: Object.keys(late.offers)[0]!, hourlyRate: 5000, now, arriveBy: new Date(Date.now() - 60_000).toISOString() });

    // Act
    const reasons = await attention();

    // Assess
    expect(reasons.get(slow.id)).toBe('offered_too_long');
    expect(reasons.get(late.id)).toBe('arrival_overdue');
  });

  it('lists a job whose payment failed until it is paid', async () => {
    // Prepare
    const { job } = await verifiedJob(testCategory());
    expect(jobEntity.indexes.open.keysOf((await jobsRepo.findById(job.id))!)).toBeUndefined();
    await jobsRepo.markPaymentFailed(job.id, new Date().toISOString());

    // Act
    const failed = await attention();
    await jobsRepo.markPaid(job.id, new Date().toISOString());
    const paid = await attention();

    // Assess
    expect(failed.get(job.id)).toBe('payment_failed');
    expect(paid.has(job.id)).toBe(false);
  });

  it('keeps finished and cancelled jobs out of the open-jobs index it reads', async () => {
    // Prepare
    const category = testCategory();
    const { job: done } = await verifiedJob(category);
    const withdrawn = await testJob(category, testPlace());
    await jobsRepo.cancel(withdrawn.id, withdrawn.customerId, new Date().toISOString());
    const open = await testJob(category, testPlace());

    // Act
    const openIds = new Set((await queryAllOf(jobEntity.indexes.open.ranges())).map((j) => j.id));

    // Assess
    expect(openIds.has(open.id)).toBe(true);
    expect(openIds.has(done.id)).toBe(false);
    expect(openIds.has(withdrawn.id)).toBe(false);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('list-jobs-needing-attention'))).status).toBe(401);
  });
});
