import { describe, expect, it } from 'vitest';
import { REVIEW_TOO_SHORT } from '../../shared/schemas/review';
import { handler } from './create-worker-review';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import { reviewsRepo } from './data/reviews';
import { workersRepo } from './data/workers';
import { newId } from '../common/ids';
import { markIssued } from '../testing/customers';
import { dispatchableWorker, offeredJob, testCategory, testJob } from '../testing/dispatch';
import { completedJob } from '../testing/money';
import { invoke, sampleEvent, withBody, withCookies } from '../testing/events';

const sample = sampleEvent('create-worker-review');


/** A worker of a category of the test's own, with one completed job. */
async function reviewable() {
  const category = testCategory();
  const worker = await dispatchableWorker(category, null);
  const job = await completedJob(category, worker);
  return { category, worker, job };
}

const reviewOf = (job: JobItem, overrides: Record<string, unknown> = {}) => ({
  serviceRequestId: job.id,
  rating: 4,
  reviewText: 'Fixed the leak quickly and cleaned up after.',
  workerId: job.acceptedBy,
  clientId: 'whatever-the-client-sends',
  clientName: 'Sam Rivera',
  serviceName: 'Plumbing',
  ...overrides,
});

/** Sent by the customer `customerId`, an identity the server issued (a job's customer, or any other for a stranger). */
const post = async (body: unknown, customerId: string) => invoke(handler, withCookies(withBody(sample, body), [await markIssued(customerId)]));

describe('POST /api/worker-reviews', () => {
  it("records the review on the job and moves the worker's average and count", async () => {
    // Prepare
    const { category, worker, job } = await reviewable();
    const earlier = await completedJob(category, worker);
    await reviewsRepo.record({ jobId: earlier.id, customerId: earlier.customerId, rating: 5, now: new Date().toISOString() });

    // Act
    const res = await post(reviewOf(job, { rating: 4, reviewText: '  Fixed the leak quickly and cleaned up after.  ' }), job.customerId);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, jobId: job.id, rating: 4, workerRating: 4.5, workerReviewCount: 2 });
    expect(await jobsRepo.findById(job.id)).toMatchObject({
      rating: 4,
      reviewText: 'Fixed the leak quickly and cleaned up after.',
      reviewerName: 'Sam Rivera',
      reviewedAt: expect.any(String),
    });
    expect(await workersRepo.findById(worker.id)).toMatchObject({ ratingSum: 9, ratingCount: 2 });
  });

  it('refuses a second review of the same job with 409 and leaves the totals as they were', async () => {
    // Prepare
    const { worker, job } = await reviewable();
    await post(reviewOf(job, { rating: 5 }), job.customerId);

    // Act
    const res = await post(reviewOf(job, { rating: 1 }), job.customerId);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('You have already reviewed this job.');
    expect(await workersRepo.findById(worker.id)).toMatchObject({ ratingSum: 5, ratingCount: 1, lowRatingStreak: 0 });
    expect((await jobsRepo.findById(job.id))?.rating).toBe(5);
  });

  it('lets exactly one of two concurrent reviews of a job through', async () => {
    // Prepare
    const { worker, job } = await reviewable();

    // Act
    const results = await Promise.all([post(reviewOf(job, { rating: 5 }), job.customerId), post(reviewOf(job, { rating: 3 }), job.customerId)]);

    // Assess
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const won = results.find((r) => r.status === 201)!.body;
    expect(await workersRepo.findById(worker.id)).toMatchObject({ ratingSum: won.rating, ratingCount: 1 });
  });

  it("answers 404 to another customer, as if the job did not exist, and records nothing", async () => {
    const { worker, job } = await reviewable();

    const res = await post(reviewOf(job), newId());

    expect(res.status).toBe(404);
    expect(res.body.message).toBe('We could not find this job among yours.');
    expect((await workersRepo.findById(worker.id))?.ratingCount).toBeUndefined();
  });

  it('answers 404 for a job that does not exist', async () => {
    const res = await post(reviewOf({ id: newId(), acceptedBy: newId() } as JobItem), newId());

    expect(res.status).toBe(404);
  });

  it('answers 401 without the customer cookie', async () => {
    const { job } = await reviewable();

    const res = await invoke(handler, withBody(sample, reviewOf(job)));

    expect(res.status).toBe(401);
  });

  it('refuses a job that is not completed yet with 409', async () => {
    // Prepare: accepted and started, not finished.
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [worker.id]);
    await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: 4000, now: new Date().toISOString(), arriveBy: new Date(Date.now() + 60_000).toISOString() });

    // Act
    const res = await post(reviewOf(job, { workerId: worker.id }), job.customerId);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('You can review the work once it is completed.');
    expect((await jobsRepo.findById(job.id))?.reviewedAt).toBeUndefined();
  });

  it('refuses a job nobody has accepted with 409', async () => {
    const job = await testJob(testCategory(), null);

    const res = await post(reviewOf(job, { workerId: undefined }), job.customerId);

    expect(res.status).toBe(409);
  });

  it('refuses a review naming another professional with 403', async () => {
    const { worker, job } = await reviewable();

    const res = await post(reviewOf(job, { workerId: newId() }), job.customerId);

    expect(res.status).toBe(403);
    expect(res.body.message).toBe('This review is for another professional.');
    expect((await workersRepo.findById(worker.id))?.ratingCount).toBeUndefined();
  });

  it.each([
    ['0', 0, 'Rating must be from 1 to 5 stars'],
    ['6', 6, 'Rating must be from 1 to 5 stars'],
    ['4.5', 4.5, 'Rating is required to submit feedback'],
    ['missing', undefined, 'Rating is required to submit feedback'],
  ])('refuses a rating of %s with 400', async (_, rating, message) => {
    const { job } = await reviewable();

    const res = await post(reviewOf(job, { rating }), job.customerId);

    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect(res.body.fields).toEqual({ rating: message });
  });

  it('refuses a review of 9 characters once trimmed with 400 and the short-review message', async () => {
    const { job } = await reviewable();

    const res = await post(reviewOf(job, { reviewText: '   123456789   ' }), job.customerId);

    expect(res.status).toBe(400);
    expect(res.body.message).toBe(REVIEW_TOO_SHORT);
    expect(res.body.message).toBe('Review too short - Please write at least 10 characters for your review.');
  });

  it('refuses a review of 501 characters with 400, and takes one of 500', async () => {
    const { job } = await reviewable();

    const long = await post(reviewOf(job, { reviewText: 'a'.repeat(501) }), job.customerId);
    const longest = await post(reviewOf(job, { reviewText: 'a'.repeat(500) }), job.customerId);

    expect(long.status).toBe(400);
    expect(long.body.fields).toEqual({ reviewText: 'Reviews can be at most 500 characters' });
    expect(longest.status).toBe(201);
  });

  it('puts the worker on probation after three low reviews in a row, once', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const jobs = [];
    for (let i = 0; i < 4; i++) jobs.push(await completedJob(category, worker));

    // Act
    for (const job of jobs.slice(0, 3)) await post(reviewOf(job, { rating: 2 }), job.customerId);
    const afterThree = await reviewsRepo.probationsOf(worker.id);
    await post(reviewOf(jobs[3]!, { rating: 1 }), jobs[3]!.customerId);

    // Assess
    expect(afterThree).toEqual([expect.objectContaining({ status: 'active', reviewTrigger: jobs[2]!.id, endDate: null })]);
    expect(await reviewsRepo.probationsOf(worker.id)).toHaveLength(1);
  });
});
