import { describe, expect, it } from 'vitest';
import { completedJob } from '../../testing/money';
import { dispatchableWorker, testCategory } from '../../testing/dispatch';
import { jobsRepo, type JobItem } from '../../jobs/data/jobs';
import { PROBATION_REASON, reviewsRepo } from './reviews';
import { workersRepo, type WorkerItem } from './workers';


async function rate(job: JobItem, rating: number) {
  return reviewsRepo.record({ jobId: job.id, customerId: job.customerId, rating, text: 'A review of the work done.', now: new Date().toISOString() });
}

/** Rates a fresh completed job of the worker's, one after another. */
async function rateInTurn(category: string, worker: WorkerItem, ratings: number[]): Promise<JobItem[]> {
  const jobs: JobItem[] = [];
  for (const rating of ratings) {
    const job = await completedJob(category, worker);
    await rate(job, rating);
    jobs.push(job);
  }
  return jobs;
}

describe('reviewsRepo.record', () => {
  it('writes the review on the job and moves the worker’s totals together', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const [first, second] = [await completedJob(category, worker), await completedJob(category, worker)];

    // Act
    const a = await reviewsRepo.record({ jobId: first.id, customerId: first.customerId, rating: 5, text: '  Quick and tidy work.  ', reviewerName: 'Sam', now: '2026-11-22T10:00:00.000Z' });
    const b = await reviewsRepo.record({ jobId: second.id, customerId: second.customerId, rating: 4, text: '', now: '2026-11-22T11:00:00.000Z' });

    // Assess
    expect(a).toEqual({ success: true, jobId: first.id, rating: 5, workerRating: 5, workerReviewCount: 1 });
    expect(b).toEqual({ success: true, jobId: second.id, rating: 4, workerRating: 4.5, workerReviewCount: 2 });
    expect(await jobsRepo.findById(first.id)).toMatchObject({ rating: 5, reviewText: 'Quick and tidy work.', reviewerName: 'Sam', reviewedAt: '2026-11-22T10:00:00.000Z' });
    const unnamed = await jobsRepo.findById(second.id);
    expect(unnamed).toMatchObject({ rating: 4, reviewedAt: '2026-11-22T11:00:00.000Z' });
    expect(unnamed).not.toHaveProperty('reviewText');
    expect(unnamed).not.toHaveProperty('reviewerName');
    expect(await workersRepo.findById(worker.id)).toMatchObject({ ratingSum: 9, ratingCount: 2, lowRatingStreak: 0 });
  });

  it('opens one active probation record after three low ratings in a row, and not a second on the fourth', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);

    // Act
    const jobs = await rateInTurn(category, worker, [2, 1, 2]);
    const afterThird = await reviewsRepo.probationsOf(worker.id);
    await rateInTurn(category, worker, [1]);

    // Assess
    expect(afterThird).toEqual([
      expect.objectContaining({ entity: 'worker-probation', workerId: worker.id, reason: PROBATION_REASON, endDate: null, status: 'active', reviewTrigger: jobs[2]!.id }),
    ]);
    expect(await reviewsRepo.probationsOf(worker.id)).toEqual(afterThird);
    const profile = await workersRepo.findById(worker.id);
    expect(profile).toMatchObject({ lowRatingStreak: 4, ratingCount: 4, ratingSum: 6, probationSince: afterThird[0]!.startDate });
  });

  it('resets the streak on a good rating, so low ratings around it do not add up', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);

    // Act
    await rateInTurn(category, worker, [1, 2, 3]);
    const reset = await workersRepo.findById(worker.id);
    await rateInTurn(category, worker, [1, 2]);

    // Assess
    expect(reset?.lowRatingStreak).toBe(0);
    expect((await workersRepo.findById(worker.id))?.lowRatingStreak).toBe(2);
    expect(await reviewsRepo.probationsOf(worker.id)).toEqual([]);
  });

  it('opens one probation when two low ratings reach the streak at the same time', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    await rateInTurn(category, worker, [2, 2]);
    const [a, b] = [await completedJob(category, worker), await completedJob(category, worker)];

    // Act
    await Promise.all([rate(a, 1), rate(b, 1)]);

    // Assess
    expect(await reviewsRepo.probationsOf(worker.id)).toHaveLength(1);
    expect(await workersRepo.findById(worker.id)).toMatchObject({ lowRatingStreak: 4, ratingCount: 4 });
  });
});
