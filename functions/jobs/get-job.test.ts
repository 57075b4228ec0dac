import { describe, expect, it } from 'vitest';
import { handler } from './get-job';
import { jobsRepo } from './data/jobs';
import { dispatchableWorker, offeredJob, testCategory, testJob, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('get-job');
const get = async (workerId: string, id: string) => invoke(handler, withBearer(withPath(sample, { id }), await workerToken(workerId)));

describe('GET /api/jobs/{id}', () => {
  it('shows an offered job to the offered worker with the town and nothing of the customer, and in full once held', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await testJob(category, testPlace(), { customerName: 'Dana Whitfield', address: '742 Evergreen Terrace, Springfield' });
    await jobsRepo.addOffers(job, { [worker.id]: new Date(Date.now() + 120_000).toISOString() }, new Date().toISOString());

    // Act
    const offered = await get(worker.id, job.id);
    await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: 4000, now: new Date().toISOString(), arriveBy: new Date(Date.now() + 60_000).toISOString() });
    const held = await get(worker.id, job.id);

    // Assess
    expect(offered.body).toMatchObject({ state: 'offered', town: 'Springfield', description: job.description, nextStates: [] });
    for (const field of ['customerName', 'customerPhone', 'customerEmail', 'address', 'latitude', 'longitude']) expect(offered.body).not.toHaveProperty(field);
    expect(held.body).toMatchObject({
      state: 'accepted',
      customerName: 'Dana Whitfield',
      customerPhone: '555-010-0142',
      customerEmail: 'customer@example.com',
      address: '742 Evergreen Terrace, Springfield',
      latitude: job.latitude,
      longitude: job.longitude,
    });
  });

  it('answers 404 to a worker who neither holds nor is offered the job, and for an unknown id', async () => {
    const category = testCategory();
    const [worker, stranger] = await Promise.all([dispatchableWorker(category, null), dispatchableWorker(category, null)]);
    const job = await offeredJob(category, [worker.id]);

    const theirs = await get(stranger.id, job.id);
    const unknown = await get(worker.id, 'NoSuchJobNoSuchJob0000');

    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(theirs.body.message).toBe(unknown.body.message);
  });
});
