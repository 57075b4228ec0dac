import { describe, expect, it } from 'vitest';
import { handler } from './rate-job';
import { jobsRepo } from '../jobs/data/jobs';
import { reviewsRepo } from '../workers/data/reviews';
import { workersRepo } from '../workers/data/workers';
import { newId } from '../common/ids';
import { markIssued } from '../testing/customers';
import { dispatchableWorker, offeredJob, testCategory } from '../testing/dispatch';
import { completedJob } from '../testing/money';
import { invoke, sampleEvent, withBody, withCookies, withPath } from '../testing/events';

const sample = sampleEvent('rate-job');


async function reviewable() {
  const category = testCategory();
  const worker = await dispatchableWorker(category, null);
  const job = await completedJob(category, worker);
  return { category, worker, job };
}

/** Sent by the customer `customerId`, an identity the server issued (a job's customer, or any other for a stranger). */
const rate = async (jobId: string, body: unknown, customerId: string) =>
  invoke(handler, withCookies(withPath(withBody(sample, body), { id: jobId }), [await markIssued(customerId)]));

describe('POST /api/jobs/{id}/rating', () => {
  it("records the stars and comment and moves the worker's average and count", async () => {
    // Prepare
    const { category, worker, job } = await reviewable();
    const earlier = await completedJob(category, worker);
    await reviewsRepo.record({ jobId: earlier.id, customerId: earlier.customerId, rating: 4, now: new Date().toISOString() });

    // Act
    const res = await rate(job.id, { rating: 5, comment: ' On time and friendly. ' }, job.customerId);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, jobId: job.id, rating: 5, workerRating: 4.5, workerReviewCount: 2 });
    expect(await jobsRepo.findById(job.id)).toMatchObject({ rating: 5, reviewText: 'On time and friendly.', reviewedAt: expect.any(String) });
    expect(await workersRepo.findById(worker.id)).toMatchObject({ ratingSum: 9, ratingCount: 2 });
  });

  it('takes stars without a comment', async () => {
    const { job } = await reviewable();

    const res = await rate(job.id, { rating: 3 }, job.customerId);

    expect(res.status).toBe(201);
    const stored = await jobsRepo.findById(job.id);
    expect(stored?.rating).toBe(3);
    expect(stored).not.toHaveProperty('reviewText');
  });

  it('refuses a second rating of the same job with 409 and leaves the totals as they were', async () => {
    // Prepare
    const { worker, job } = await reviewable();
    await rate(job.id, { rating: 4 }, job.customerId);

    // Act
    const res = await rate(job.id, { rating: 1 }, job.customerId);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('You have already reviewed this job.');
    expect(await workersRepo.findById(worker.id)).toMatchObject({ ratingSum: 4, ratingCount: 1, lowRatingStreak: 0 });
  });

  it('lets exactly one of two concurrent ratings of a job through', async () => {
    const { worker, job } = await reviewable();

    const results = await Promise.all([rate(job.id, { rating: 5 }, job.customerId), rate(job.id, { rating: 2 }, job.customerId)]);

    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await workersRepo.findById(worker.id))?.ratingCount).toBe(1);
  });

  it("answers 404 to another customer's cookie and to an id that is no job", async () => {
    const { worker, job } = await reviewable();

    const theirs = await rate(job.id, { rating: 5 }, newId());
    const malformed = await rate('not-a-job', { rating: 5 }, job.customerId);

    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('We could not find this job among yours.');
    expect(malformed.status).toBe(404);
    expect((await workersRepo.findById(worker.id))?.ratingCount).toBeUndefined();
  });

  it('answers 401 without the customer cookie', async () => {
    const { job } = await reviewable();

    const res = await invoke(handler, withPath(withBody(sample, { rating: 5 }), { id: job.id }));

    expect(res.status).toBe(401);
  });

  it('refuses a job that is not completed yet with 409', async () => {
    // Prepare: accepted, the worker on the way.
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [worker.id]);
    await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: 4000, now: new Date().toISOString(), arriveBy: new Date(Date.now() + 60_000).toISOString() });

    // Act
    const res = await rate(job.id, { rating: 5 }, job.customerId);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('You can review the work once it is completed.');
  });

  it.each([
    ['0', 0, 'Rating must be from 1 to 5 stars'],
    ['6', 6, 'Rating must be from 1 to 5 stars'],
    ['4.5', 4.5, 'Rating is required to submit feedback'],
    ['missing', undefined, 'Rating is required to submit feedback'],
  ])('refuses a rating of %s with 400', async (_, rating, message) => {
    const { job } = await reviewable();

    const res = await rate(job.id, { rating, comment: 'Fine.' }, job.customerId);

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ rating: message });
  });

  it('refuses a comment of 501 characters with 400', async () => {
    const { job } = await reviewable();

    const res = await rate(job.id, { rating: 5, comment: 'a'.repeat(501) }, job.customerId);

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ comment: 'Comment must be at most 500 characters' });
  });

  it('resets the low-rating streak on a good rating, so no probation follows', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const jobs = [];
    for (let i = 0; i < 4; i++) jobs.push(await completedJob(category, worker));

    // Act: low, low, good, low.
    for (const [job, rating] of [[jobs[0]!, 1], [jobs[1]!, 2], [jobs[2]!, 5], [jobs[3]!, 1]] as const) {
      await rate(job.id, { rating }, job.customerId);
    }

    // Assess
    expect(await workersRepo.findById(worker.id)).toMatchObject({ lowRatingStreak: 1, ratingCount: 4, ratingSum: 9 });
    expect(await reviewsRepo.probationsOf(worker.id)).toEqual([]);
  });

  it('puts the worker on probation after three low ratings in a row on three jobs, once', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const jobs = [];
    for (let i = 0; i < 4; i++) jobs.push(await completedJob(category, worker));

    // Act
    for (const job of jobs) await rate(job.id, { rating: 1 }, job.customerId);

    // Assess
    expect(await reviewsRepo.probationsOf(worker.id)).toEqual([
      expect.objectContaining({ workerId: worker.id, status: 'active', reviewTrigger: jobs[2]!.id, reason: 'Rated 2 stars or fewer 3 times in a row' }),
    ]);
  });
});
