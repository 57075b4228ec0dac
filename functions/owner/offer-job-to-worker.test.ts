import { describe, expect, it } from 'vitest';
import { jobEntity } from '../../shared/entities';
import { handler as accept } from '../jobs/accept-job';
import { handler as listOffers } from '../jobs/list-job-offers';
import { handler } from './offer-job-to-worker';
import { jobsRepo } from '../jobs/data/jobs';
import { timerNames } from '../jobs/dispatch';
import { newId } from '../common/ids';
import { createTestWorker } from '../testing/workers';
import { dispatchableWorker, findSchedule, offeredJob, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { noProJob, ownerCall } from '../testing/owner-jobs';
import { withBearer, workerToken } from '../testing/workers';

const offer = async (jobId: string, workerId: string) => invoke(handler, await ownerCall('offer-job-to-worker', jobId, { workerId }));

describe('POST /api/admin/jobs/{id}/offer', () => {
  it('offers a job that found nobody to a chosen pro, who sees it among their offers and accepts it', async () => {
    // Prepare: the search ended with nobody; then a pro of the trade comes on call
    const category = testCategory();
    const job = await noProJob(category);
    const pro = await dispatchableWorker(category, null, { fullName: 'Chosen Pro' });

    // Act
    const res = await offer(job.id, pro.id);
    const token = await workerToken(pro.id);
    const offers = await invoke(listOffers, withBearer(withPath(sampleEvent('list-job-offers'), { workerId: pro.id }), token));
    const accepted = await invoke(accept, withBearer(withBody(withPath(sampleEvent('accept-job'), { jobId: job.id }), {}), token));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ state: 'offered', dispatch: 'searching', attention: null });
    expect(res.body.openOffers).toEqual([{ worker: { id: pro.id, name: 'Chosen Pro' }, expiresAt: expect.any(String) }]);
    expect(res.body.timeline.at(-1)).toMatchObject({ type: 'offered', actor: { role: 'owner' }, worker: { id: pro.id } });
    expect(await findSchedule(timerNames.ownerOffer(job.id, pro.id, job.version))).toBeDefined();
    expect(offers.body.map((o: { id: string }) => o.id)).toContain(job.id);
    expect(accepted.status).toBe(200);
    const stored = (await jobsRepo.findById(job.id))!;
    expect(stored).toMatchObject({ state: 'accepted', acceptedBy: pro.id });
    expect(jobEntity.indexes.workerJobs.keysOf(stored)?.pk).toBe(`WORKERJOBS#${pro.id}`);
  });

  it('refuses a pro of another trade, one off call and one holding a job, naming why', async () => {
    // Prepare
    const category = testCategory();
    const job = await noProJob(category);
    const otherTrade = await dispatchableWorker(testCategory(), null);
    const offCall = await createTestWorker({ categories: [category] });
    const busy = await dispatchableWorker(category, null, { activeJobId: newId() });

    // Act
    const results = await Promise.all([offer(job.id, otherTrade.id), offer(job.id, offCall.id), offer(job.id, busy.id)]);

    // Assess
    expect(results.map((r) => r.status)).toEqual([409, 409, 409]);
    expect(results[0]!.body.message).toMatch(/does not work in/);
    expect(results[1]!.body.message).toMatch(/cannot take a job now/);
    expect((await jobsRepo.findById(job.id))!.dispatch).toBe('no_worker_available');
  });

  it('refuses a job a pro already holds', async () => {
    // Prepare
    const category = testCategory();
    const holder = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [holder.id]);
    const now = new Date().toISOString();
    await jobsRepo.accept({ jobId: job.id, workerId: holder.id, hourlyRate: 5000, now, arriveBy: new Date(Date.now() + 3_600_000).toISOString() });
    const other = await dispatchableWorker(category, null);

    // Act
    const res = await offer(job.id, other.id);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/already holds this job/);
  });

  it('of two owners offering the job to the same pro at once, makes one offer', async () => {
    // Prepare
    const category = testCategory();
    const job = await noProJob(category);
    const pro = await dispatchableWorker(category, null);

    // Act
    const results = await Promise.all([offer(job.id, pro.id), offer(job.id, pro.id)]);

    // Assess
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    expect(winner.body.timeline.filter((e: { type: string }) => e.type === 'offered')).toHaveLength(1);
    expect((await jobsRepo.findById(job.id))!.tried).toEqual([pro.id]);
  });

  it('answers 404 for an unknown job or pro', async () => {
    // Prepare
    const category = testCategory();
    const job = await noProJob(category);
    const pro = await dispatchableWorker(category, null);

    // Act
    const noJob = await offer(newId(), pro.id);
    const noPro = await offer(job.id, newId());

    // Assess
    expect(noJob.status).toBe(404);
    expect(noPro.status).toBe(404);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('offer-job-to-worker'))).status).toBe(401);
  });
});
