import { describe, expect, it } from 'vitest';
import { handler } from './reoffer-job';
import { jobsRepo } from './data/jobs';
import { newId } from '../common/ids';
import { dispatchableWorker, offeredJob, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent } from '../testing/events';
import { noProJob, ownerCall } from '../testing/owner-jobs';

const reoffer = async (jobId: string) => invoke(handler, await ownerCall('reoffer-job', jobId));

describe('POST /api/admin/jobs/{id}/reoffer', () => {
  it('starts the search again on a job that found nobody, offering it to a pro now on call', async () => {
    // Prepare
    const category = testCategory();
    const job = await noProJob(category);
    const pro = await dispatchableWorker(category, null);

    // Act
    const res = await reoffer(job.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ state: 'offered', dispatch: 'searching', offersMade: 1 });
    expect(res.body.openOffers.map((o: { worker: { id: string } }) => o.worker.id)).toEqual([pro.id]);
    const steps = res.body.timeline.map((e: { type: string; actor: { role: string } }) => `${e.type}:${e.actor.role}`);
    expect(steps.slice(-2)).toEqual(['reopened:owner', 'offered:system']);
  });

  it('of two owners pressing it at once, starts the search once', async () => {
    // Prepare
    const category = testCategory();
    const job = await noProJob(category);

    // Act
    const results = await Promise.all([reoffer(job.id), reoffer(job.id)]);

    // Assess
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const stored = (await jobsRepo.findById(job.id))!;
    expect(stored.reopenedCount).toBe(1);
    const last = results[1]!.body.timeline as { type: string }[];
    expect(last.filter((e) => e.type === 'reopened')).toHaveLength(1);
  });

  it('refuses a job a pro already holds', async () => {
    // Prepare
    const category = testCategory();
    const pro = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [pro.id]);
    const now = new Date().toISOString();
    await jobsRepo.accept({ jobId: job.id, workerId: pro.id, hourlyRate: 5000, now, arriveBy: new Date(Date.now() + 3_600_000).toISOString() });

    // Act
    const res = await reoffer(job.id);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/already holds this job/);
  });

  it('answers 404 for a job that does not exist', async () => {
    expect((await reoffer(newId())).status).toBe(404);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('reoffer-job'))).status).toBe(401);
  });
});
