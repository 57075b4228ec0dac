import { describe, expect, it } from 'vitest';
import { handler } from './list-worker-jobs';
import { jobsRepo } from './data/jobs';
import { dispatchableWorker, offeredJob, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('list-worker-jobs');

describe('GET /api/jobs/worker/{workerId}', () => {
  it('lists the job the worker holds, with the customer contact and next steps, and not offers', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const held = await offeredJob(category, [worker.id]);
    await offeredJob(category, [worker.id]);
    await jobsRepo.accept({ jobId: held.id, workerId: worker.id, hourlyRate: 4000, now: new Date().toISOString(), arriveBy: new Date(Date.now() + 60_000).toISOString() });

    // Act
    const res = await invoke(handler, withBearer(withPath(sample, { workerId: worker.id }), await workerToken(worker.id)));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ id: held.id, state: 'accepted', customerPhone: '555-010-0142', nextStates: ['en_route', 'arrived'] })]);
  });

  it("refuses another worker's list with 403", async () => {
    const category = testCategory();
    const [worker, other] = await Promise.all([dispatchableWorker(category, null), dispatchableWorker(category, null)]);

    const res = await invoke(handler, withBearer(withPath(sample, { workerId: other.id }), await workerToken(worker.id)));

    expect(res.status).toBe(403);
  });
});
