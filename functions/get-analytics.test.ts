import { describe, expect, it } from 'vitest';
import { handler as approveWorker } from './approve-worker';
import { handler } from './get-analytics';
import { jobsRepo } from './lib/data/jobs';
import { reviewsRepo } from './lib/data/reviews';
import { dispatchableWorker, offeredJob, testCategory } from './lib/testing/dispatch';
import { asOwner, pendingApplication } from './lib/testing/applications';
import { invoke, sampleEvent } from './lib/testing/events';
import { handler as rejectWorker } from './reject-worker';

const analytics = async () => (await invoke(handler, await asOwner('get-analytics'))).body;

describe('GET /api/admin/analytics', () => {
  it('reports real counts, and a rating only from real reviews', async () => {
    const res = await invoke(handler, await asOwner('get-analytics'));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      applications: { pending: expect.any(Number), approved: expect.any(Number), rejected: expect.any(Number) },
      companyApplications: { pending: expect.any(Number), approved: expect.any(Number), rejected: expect.any(Number) },
      workers: { active: expect.any(Number), pendingReview: expect.any(Number), terminated: expect.any(Number), available: expect.any(Number) },
      jobs: { byState: expect.any(Object), total: expect.any(Number) },
      averageRating: expect.toBeOneOf([null, expect.any(Number)]),
      reviewCount: expect.any(Number),
      workersOnProbation: expect.any(Number),
    });
    if (res.body.reviewCount === 0) expect(res.body.averageRating).toBeNull();
    const byState = Object.values(res.body.jobs.byState as Record<string, number>);
    expect(byState.reduce((a, b) => a + b, 0)).toBe(res.body.jobs.total);
  });

  it('counts applications by status and workers as they are reviewed', async () => {
    // Prepare (other test files write to the same table at the same time: counts only grow here)
    const before = await analytics();
    const [a, b, c] = await Promise.all([pendingApplication(), pendingApplication(), pendingApplication()]);
    await invoke(approveWorker, await asOwner('approve-worker', { id: a.id }));
    await invoke(rejectWorker, await asOwner('reject-worker', { id: b.id }));

    // Act
    const after = await analytics();

    // Assess
    expect(c.id).toBeTruthy();
    expect(after.applications.pending).toBeGreaterThanOrEqual(1);
    expect(after.applications.approved).toBeGreaterThanOrEqual(before.applications.approved + 1);
    expect(after.applications.rejected).toBeGreaterThanOrEqual(before.applications.rejected + 1);
    expect(after.workers.active).toBeGreaterThanOrEqual(before.workers.active + 1);
  });

  it('counts every review in the average and the review count, one decimal', async () => {
    // Prepare (other test files review at the same time: the count only grows here)
    const before = await analytics();
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    for (const rating of [5, 4, 4]) {
      const job = await offeredJob(category, [worker.id]);
      const now = () => new Date().toISOString();
      await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: worker.hourlyRate, now: now(), arriveBy: new Date(Date.now() + 60_000).toISOString() });
      await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now: now() });
      await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: now() });
      await jobsRepo.complete({ jobId: job.id, workerId: worker.id, now: now(), totalHours: 1 });
      await reviewsRepo.record({ jobId: job.id, customerId: job.customerId, rating, now: now() });
    }

    // Act
    const after = await analytics();

    // Assess
    expect(after.reviewCount).toBeGreaterThanOrEqual(before.reviewCount + 3);
    expect(after.averageRating).toBeGreaterThanOrEqual(1);
    expect(after.averageRating).toBeLessThanOrEqual(5);
    expect(Math.round(after.averageRating * 10) / 10).toBe(after.averageRating);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('get-analytics'))).status).toBe(401);
  });
});
