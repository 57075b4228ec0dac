import { describe, expect, it } from 'vitest';
import { handler } from './complete-job';
import { handler as accept } from './accept-job';
import { handler as setState } from './set-job-state';
import { jobsRepo } from './lib/data/jobs';
import { workersRepo } from './lib/data/workers';
import { dispatchableWorker, offeredJob, testCategory, testPlace } from './lib/testing/dispatch';
import { invoke, sampleEvent, withBody, withPath } from './lib/testing/events';
import { withBearer, workerToken } from './lib/testing/workers';

const sample = sampleEvent('complete-job');

async function jobIn(states: readonly ('arrived' | 'in_progress')[]) {
  const category = testCategory();
  const place = testPlace();
  const worker = await dispatchableWorker(category, null);
  const job = await offeredJob(category, [worker.id], 120, place);
  const token = await workerToken(worker.id);
  await invoke(accept, withBearer(withPath(withBody(sampleEvent('accept-job'), {}), { jobId: job.id }), token));
  for (const state of states) {
    // Arriving takes a fix at the address.
    const body = state === 'arrived' ? { state, position: { lat: place.lat, lng: place.lng, accuracy: 10 } } : { state };
    await invoke(setState, withBearer(withPath(withBody(sampleEvent('set-job-state'), body), { id: job.id }), token));
  }
  return { worker, job, token };
}

describe('POST /api/jobs/{id}/complete', () => {
  it('completes a job in progress, fixes its billable hours and frees the worker for the next job', async () => {
    // Prepare
    const { worker, job, token } = await jobIn(['arrived', 'in_progress']);

    // Act
    const res = await invoke(handler, withBearer(withPath(withBody(sample, { workerId: worker.id }), { id: job.id }), token));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'completed', nextStates: [] });
    expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'completed', totalHours: 1, dispatch: 'done' });
    expect((await workersRepo.findById(worker.id))?.activeJobId).toBeUndefined();
    expect((await jobsRepo.listCompletedBy(worker.id)).map((j) => j.id)).toEqual([job.id]);
    expect(await jobsRepo.listHeldBy(worker.id)).toEqual([]);
  });

  it('refuses a job not yet started with 409 and keeps the worker on it', async () => {
    const { worker, job, token } = await jobIn(['arrived']);

    const res = await invoke(handler, withBearer(withPath(withBody(sample, {}), { id: job.id }), token));

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A job that is arrived can move only to: in_progress.');
    expect((await workersRepo.findById(worker.id))?.activeJobId).toBe(job.id);
  });

  it('completes once: a second call gets 409', async () => {
    const { job, token } = await jobIn(['arrived', 'in_progress']);
    const event = withBearer(withPath(withBody(sample, {}), { id: job.id }), token);

    const results = await Promise.all([invoke(handler, event), invoke(handler, event)]);

    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});
