import { describe, expect, it } from 'vitest';
import { handler } from './list-job-offers';
import { jobsRepo } from './data/jobs';
import { dispatchableWorker, north, offeredJob, testCategory, testJob, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';

const sample = sampleEvent('list-job-offers');
const offersOf = async (workerId: string, pathWorkerId = workerId) =>
  invoke(handler, withBearer(withPath(sample, { workerId: pathWorkerId }), await workerToken(workerId)));

describe('GET /api/jobs/offers/{workerId}', () => {
  it("lists the worker's standing offers with the worker's own rate, expiry and distance, and no customer phone", async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const worker = await dispatchableWorker(category, north(place, 2), { hourlyRate: 6100 });
    const job = await offeredJob(category, [worker.id], 120, place);

    // Act
    const res = await offersOf(worker.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ id: job.id, hourlyRate: 6100, offerExpiresAt: job.offers[worker.id], state: 'offered' })]);
    expect(res.body[0].distanceKm).toBeCloseTo(2, 0);
    expect(res.body[0]).not.toHaveProperty('customerPhone');
  });

  it('shows what deciding needs (trade, town, description, distance, time) and not who the customer is or their street', async () => {
    // Prepare: a job with a full address, offered to a pro 3 km away
    const [category, place] = [testCategory(), testPlace()];
    const worker = await dispatchableWorker(category, north(place, 3));
    const job = await testJob(category, place, { customerName: 'Dana Whitfield', address: '742 Evergreen Terrace, Springfield, Oregon', service: 'Leaky tap' });
    await jobsRepo.addOffers(job, { [worker.id]: new Date(Date.now() + 120_000).toISOString() }, new Date().toISOString());

    // Act
    const res = await offersOf(worker.id);

    // Assess
    expect(res.body).toEqual([expect.objectContaining({ id: job.id, category, service: 'Leaky tap', town: 'Springfield', description: job.description, arriveBy: null })]);
    expect(res.body[0].distanceKm).toBeCloseTo(3, 0);
    for (const field of ['customerName', 'customerPhone', 'customerEmail', 'address', 'latitude', 'longitude']) expect(res.body[0]).not.toHaveProperty(field);
    expect(JSON.stringify(res.body)).not.toMatch(/Dana|Evergreen/);
  });

  it('leaves out offers that expired, were taken by someone else or passed on', async () => {
    const category = testCategory();
    const [worker, rival] = await Promise.all([dispatchableWorker(category, null), dispatchableWorker(category, null)]);
    await offeredJob(category, [worker.id], -1);
    const taken = await offeredJob(category, [worker.id, rival.id]);
    await jobsRepo.accept({ jobId: taken.id, workerId: rival.id, hourlyRate: 4000, now: new Date().toISOString(), arriveBy: new Date(Date.now() + 60_000).toISOString() });
    const passed = await offeredJob(category, [worker.id]);
    await jobsRepo.withdrawOffer(passed.id, worker.id, new Date().toISOString());

    const res = await offersOf(worker.id);

    expect(res.body).toEqual([]);
  });

  it("refuses another worker's offers with 403", async () => {
    const category = testCategory();
    const [worker, other] = await Promise.all([dispatchableWorker(category, null), dispatchableWorker(category, null)]);

    const res = await offersOf(worker.id, other.id);

    expect(res.status).toBe(403);
  });
});
