import { describe, expect, it } from 'vitest';
import { handler } from './set-job-state';
import { handler as accept } from './accept-job';
import { jobsRepo } from './lib/data/jobs';
import { timerNames } from './lib/dispatch';
import { dispatchableWorker, findSchedule, offeredJob, testCategory } from './lib/testing/dispatch';
import { invoke, sampleEvent, withBody, withPath } from './lib/testing/events';
import { withBearer, workerToken } from './lib/testing/workers';

const sample = sampleEvent('set-job-state');

/** A job accepted by a fresh worker, through the accept call itself. */
async function acceptedJob() {
  const category = testCategory();
  const worker = await dispatchableWorker(category, null);
  const job = await offeredJob(category, [worker.id]);
  const token = await workerToken(worker.id);
  await invoke(accept, withBearer(withPath(withBody(sampleEvent('accept-job'), { workerId: worker.id }), { jobId: job.id }), token));
  return { worker, job, token };
}

const move = (jobId: string, token: string, body: unknown) => invoke(handler, withBearer(withPath(withBody(sample, body), { id: jobId }), token));

describe('POST /api/jobs/{id}/state', () => {
  it('walks the worker through en route, arrived and started, stamping each time', async () => {
    // Prepare
    const { worker, job, token } = await acceptedJob();

    // Act
    const enRoute = await move(job.id, token, { state: 'en_route', workerId: worker.id });
    const arrived = await move(job.id, token, { state: 'arrived' });
    const started = await move(job.id, token, { state: 'in_progress' });

    // Assess
    expect([enRoute.status, arrived.status, started.status]).toEqual([200, 200, 200]);
    expect(enRoute.body.nextStates).toEqual(['arrived']);
    expect(started.body).toMatchObject({ state: 'in_progress', nextStates: ['completed'] });
    const stored = await jobsRepo.findById(job.id);
    expect(stored?.enRouteAt && stored.arrivedAt && stored.startedAt).toBeTruthy();
  });

  it('lets a worker go straight from accepted to arrived, and arriving deletes the arrival timer', async () => {
    const { job, token, worker } = await acceptedJob();
    expect(await findSchedule(timerNames.arrival(job.id, worker.id))).toBeDefined();

    const res = await move(job.id, token, { state: 'arrived' });

    expect(res.status).toBe(200);
    expect(await findSchedule(timerNames.arrival(job.id, worker.id))).toBeUndefined();
  });

  it('refuses a skipped step with 409 naming the allowed next states, and changes nothing', async () => {
    const { job, token } = await acceptedJob();

    const res = await move(job.id, token, { state: 'in_progress' });

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A job that is accepted can move only to: en_route, arrived.');
    expect((await jobsRepo.findById(job.id))?.state).toBe('accepted');
  });

  it('refuses a backward step with 409', async () => {
    const { job, token } = await acceptedJob();
    await move(job.id, token, { state: 'arrived' });

    const res = await move(job.id, token, { state: 'en_route' });

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A job that is arrived can move only to: in_progress.');
  });

  it('answers 404 to a worker who does not hold the job, and 403 to a body naming another worker', async () => {
    const { job, worker } = await acceptedJob();
    const other = await dispatchableWorker(testCategory(), null);
    const otherToken = await workerToken(other.id);
    const ownToken = await workerToken(worker.id);

    const stranger = await move(job.id, otherToken, { state: 'en_route' });
    const spoofed = await move(job.id, ownToken, { state: 'en_route', workerId: other.id });

    expect(stranger.status).toBe(404);
    expect(spoofed.status).toBe(403);
    expect((await jobsRepo.findById(job.id))?.state).toBe('accepted');
  });

  it('refuses completing through this call (it has its own) with 400', async () => {
    const { job, token } = await acceptedJob();

    const res = await move(job.id, token, { state: 'completed' });

    expect(res.status).toBe(400);
    expect(res.body.fields.state).toBe('state must be en_route, arrived or in_progress');
  });
});
