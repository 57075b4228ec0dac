import { describe, expect, it } from 'vitest';
import { handler } from './list-completed-jobs';
import { jobsRepo } from './data/jobs';
import { env } from '../common/env';
import { dispatchableWorker, offeredJob, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('list-completed-jobs');

describe('GET /api/jobs/completed/{workerId}', () => {
  it("lists finished jobs with their billable hours, amount and the worker's share at the configured fee", async () => {
    // Prepare: a job worked from 10:00 to 12:20 (2h20 → 2.5 billable hours at $40).
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [worker.id]);
    await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: 4000, now: new Date().toISOString(), arriveBy: new Date(Date.now() + 60_000).toISOString() });
    await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now: '2026-11-20T09:55:00.000Z' });
    await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: '2026-11-20T10:00:00.000Z' });
    await jobsRepo.complete({ jobId: job.id, workerId: worker.id, now: '2026-11-20T12:20:00.000Z', totalHours: 2.5 });

    // Act
    const res = await invoke(handler, withBearer(withPath(sample, { workerId: worker.id }), await workerToken(worker.id)));

    // Assess
    expect(res.status).toBe(200);
    const share = 10_000 - Math.round((10_000 * env.PLATFORM_FEE_PERCENT) / 100);
    expect(res.body).toEqual([
      expect.objectContaining({ id: job.id, totalHours: 2.5, hourlyRate: 4000, amount: 10_000, workerShare: share, feePercent: env.PLATFORM_FEE_PERCENT }),
    ]);
  });

  it('answers an empty list to a worker with no finished jobs, and 403 for another worker', async () => {
    const category = testCategory();
    const [worker, other] = await Promise.all([dispatchableWorker(category, null), dispatchableWorker(category, null)]);
    const token = await workerToken(worker.id);

    const own = await invoke(handler, withBearer(withPath(sample, { workerId: worker.id }), token));
    const theirs = await invoke(handler, withBearer(withPath(sample, { workerId: other.id }), token));

    expect(own.body).toEqual([]);
    expect(theirs.status).toBe(403);
  });
});
