import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { jobEntity } from '../../shared/entities';
import { updateOf } from '../common/data/expressions';
import { handler } from './clock-in';
import { dynamo } from '../common/clients';
import { geohashOf } from '../jobs/data/dispatch-index';
import { jobsRepo } from '../jobs/data/jobs';
import { notificationsRepo } from '../realtime/data/notifications';
import { offerNext } from '../jobs/dispatch';
import { north, testCategory, testJob, testPlace } from '../testing/dispatch';
import { workersRepo } from './data/workers';
import { invoke, sampleEvent, withBody, withHeaders } from '../testing/events';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('clock-in');

async function asWorker(overrides = {}) {
  const worker = await createTestWorker(overrides);
  return { worker, token: await workerToken(worker.id) };
}

describe('POST /api/workers/clock-in', () => {
  it('clocks the worker in and records the time', async () => {
    // Prepare
    const { worker, token } = await asWorker();
    const before = Date.now();

    // Act
    const res = await invoke(handler, withBearer(sample, token));

    // Assess
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['isClockedIn', 'lastClockIn']);
    expect(res.body.isClockedIn).toBe(true);
    expect(Date.parse(res.body.lastClockIn)).toBeGreaterThanOrEqual(before - 1000);
    expect(await workersRepo.findById(worker.id)).toMatchObject({ isClockedIn: true, lastClockIn: res.body.lastClockIn });
  });

  it('refuses a second clock-in with 409 and keeps the first time', async () => {
    const { worker, token } = await asWorker();
    const first = await invoke(handler, withBearer(sample, token));

    const second = await invoke(handler, withBearer(sample, token));

    expect(second.status).toBe(409);
    expect(second.body).toEqual({ error: 'ConflictError', message: 'You are already clocked in.' });
    expect((await workersRepo.findById(worker.id))?.lastClockIn).toBe(first.body.lastClockIn);
  });

  it('lets exactly one of two concurrent clock-ins through', async () => {
    const { token } = await asWorker();

    const results = await Promise.all([invoke(handler, withBearer(sample, token)), invoke(handler, withBearer(sample, token))]);

    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it.each(['pending_review', 'terminated'] as const)('refuses a %s worker with 403 and changes nothing', async (status) => {
    const { worker, token } = await asWorker({ status });

    const res = await invoke(handler, withBearer(sample, token));

    expect(res.status).toBe(403);
    expect(await workersRepo.findById(worker.id)).toMatchObject({ isClockedIn: false, lastClockIn: null });
  });

  it("changes only the token's worker", async () => {
    const { token } = await asWorker();
    const other = await createTestWorker();

    await invoke(handler, withBearer(sample, token));

    expect((await workersRepo.findById(other.id))?.isClockedIn).toBe(false);
  });

  it('takes no body, so no other worker can be named', async () => {
    const { token } = await asWorker();
    const event = withHeaders(withBody(sample, { workerId: 'someone-else' }), { 'content-type': 'application/json' });

    const res = await invoke(handler, withBearer(event, token));

    expect(res.status).toBe(400);
  });

  it('refuses a call without a token with 401', async () => {
    expect((await invoke(handler, sample)).status).toBe(401);
  });
});

describe('POST /api/workers/clock-in: a job nearby that found nobody', () => {
  /** A job of `category` at `at` whose search ended with nobody `minutesAgo` minutes ago. */
  async function unfilledJob(category: string, at: { lat: number; lng: number }, minutesAgo = 0) {
    const job = await testJob(category, at);
    await offerNext(job.id);
    const stored = (await jobsRepo.findById(job.id))!;
    expect(stored.dispatch).toBe('no_worker_available');
    if (minutesAgo) {
      const then = new Date(Date.now() - minutesAgo * 60_000).toISOString();
      await dynamo.send(
        // Among the trade's unfilled jobs as of then, as the entity files it.
        new UpdateCommand(updateOf(jobEntity, jobEntity.key(job.id), { set: { noWorkerAt: then }, stored })),
      );
    }
    return stored;
  }

  it('is offered to a pro of its trade who clocks in nearby, and its customer is told', async () => {
    // Prepare
    const category = testCategory();
    const place = testPlace();
    const job = await unfilledJob(category, place);
    const { worker, token } = await asWorker({ categories: [category], isAvailable: true, location: { ...north(place, 2), accuracy: 10, geohash: geohashOf(north(place, 2)), at: new Date().toISOString() } });

    // Act
    const res = await invoke(handler, withBearer(sample, token));

    // Assess
    expect(res.status).toBe(200);
    const stored = (await jobsRepo.findById(job.id))!;
    expect(stored).toMatchObject({ state: 'offered', dispatch: 'searching' });
    expect(Object.keys(stored.offers)).toEqual([worker.id]);
    const told = await notificationsRepo.latest('customer', job.customerId);
    expect(told.map((n) => n.title)).toContain('Finding you a pro');
  });

  it('is left alone for a pro far away, and once its half hour has passed', async () => {
    // Prepare
    const category = testCategory();
    const place = testPlace();
    const far = await unfilledJob(category, north(place, 120));
    const old = await unfilledJob(category, place, 31);
    const { token } = await asWorker({ categories: [category], isAvailable: true, location: { ...place, accuracy: 10, geohash: geohashOf(place), at: new Date().toISOString() } });

    // Act
    await invoke(handler, withBearer(sample, token));

    // Assess
    expect((await jobsRepo.findById(far.id))!.dispatch).toBe('no_worker_available');
    expect((await jobsRepo.findById(old.id))!.dispatch).toBe('no_worker_available');
  });
});
