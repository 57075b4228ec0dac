import { describe, expect, it } from 'vitest';
import { handler } from './expire-offer';
import { jobsRepo } from './data/jobs';
import { offerNext } from './dispatch';
import { env } from '../common/env';
import { dispatchableWorker, north, offeredJob, testCategory, testJob, testPlace } from '../testing/dispatch';

describe('expire-offer (timer)', () => {
  it('withdraws an expired offer and offers the job to the next nearest worker', async () => {
    // Prepare
    const [category, place] = [testCategory(), testPlace()];
    const first = await dispatchableWorker(category, north(place, 1));
    const next = await dispatchableWorker(category, north(place, 2));
    const job = await offeredJob(category, [first.id], -1, place);

    // Act
    await handler({ jobId: job.id, workerId: first.id });

    // Assess
    const after = await jobsRepo.findById(job.id);
    expect(Object.keys(after!.offers)).toEqual([next.id]);
    expect(after!.tried).toEqual([first.id, next.id]);
  });

  it('changes nothing when fired twice', async () => {
    const [category, place] = [testCategory(), testPlace()];
    const first = await dispatchableWorker(category, north(place, 1));
    await dispatchableWorker(category, north(place, 2));
    const job = await offeredJob(category, [first.id], -1, place);
    await handler({ jobId: job.id, workerId: first.id });
    const once = await jobsRepo.findById(job.id);

    await handler({ jobId: job.id, workerId: first.id });

    const twice = await jobsRepo.findById(job.id);
    expect(twice!.tried).toEqual(once!.tried);
    expect(twice!.offers).toEqual(once!.offers);
  });

  it('changes nothing when the job was accepted before it fired', async () => {
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [worker.id]);
    await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: 4000, now: new Date().toISOString(), arriveBy: new Date(Date.now() + 60_000).toISOString() });
    const accepted = await jobsRepo.findById(job.id);

    await handler({ jobId: job.id, workerId: worker.id });

    expect(await jobsRepo.findById(job.id)).toEqual(accepted);
  });

  it('does not withdraw an offer that has not expired yet', async () => {
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [worker.id], 60);

    await handler({ jobId: job.id, workerId: worker.id });

    expect((await jobsRepo.findById(job.id))!.offers[worker.id]).toBe(job.offers[worker.id]);
  });

  it('ends in "no worker available" once the last offer expires with nobody left', async () => {
    const [category, place] = [testCategory(), testPlace()];
    const only = await dispatchableWorker(category, place);
    const job = await offeredJob(category, [only.id], -1, place);

    await handler({ jobId: job.id, workerId: only.id });

    expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'booked', dispatch: 'no_worker_available', offers: {} });
  });

  it(`stops after ${env.MAX_OFFERS} workers have been offered the job`, async () => {
    const [category, place] = [testCategory(), testPlace()];
    const workers = [];
    for (let i = 0; i < env.MAX_OFFERS + 2; i++) workers.push(await dispatchableWorker(category, north(place, 0.1 * (i + 1))));
    const job = await testJob(category, place);
    await offerNext(job.id);

    // Every outstanding offer expires, round after round, as the timers would make them.
    for (let round = 0; round < 10; round++) {
      const current = (await jobsRepo.findById(job.id))!;
      const open = Object.keys(current.offers);
      if (open.length === 0) break;
      for (const workerId of open) {
        await jobsRepo.withdrawOffer(job.id, workerId, new Date().toISOString(), '9999');
        await handler({ jobId: job.id, workerId });
      }
    }

    const after = await jobsRepo.findById(job.id);
    expect(after!.tried).toHaveLength(env.MAX_OFFERS);
    expect(after).toMatchObject({ state: 'booked', dispatch: 'no_worker_available' });
  });

  it('drops an input that is not a job timer without failing', async () => {
    await expect(handler({ jobId: 5 })).resolves.toBeUndefined();
  });
});
