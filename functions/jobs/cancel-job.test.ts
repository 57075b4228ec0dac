import { describe, expect, it } from 'vitest';
import { handler as accept } from './accept-job';
import { handler } from './cancel-job';
import { handler as track } from '../bookings/get-tracked-request';
import { jobsRepo } from './data/jobs';
import { workersRepo } from '../workers/data/workers';
import { newId } from '../common/ids';
import { dispatchableWorker, offeredJob, testCategory, testJob, testPlace } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { ownerCall } from '../testing/owner-jobs';
import { withBearer, workerToken } from '../testing/workers';

const MESSAGE = 'We could not find a pro for this today; please send the request again tomorrow.';
const cancel = async (jobId: string, message: unknown = MESSAGE) => invoke(handler, await ownerCall('cancel-job', jobId, { message }));

describe('POST /api/admin/jobs/{id}/cancel', () => {
  it('cancels an offered job with the message the customer then sees, withdrawing its offers', async () => {
    // Prepare
    const category = testCategory();
    const pro = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [pro.id]);

    // Act
    const res = await cancel(job.id);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ job: { state: 'cancelled' }, cancelMessage: MESSAGE, canCancel: false, openOffers: [] });
    expect(res.body.timeline.at(-1)).toMatchObject({ type: 'cancelled', actor: { role: 'owner' }, detail: MESSAGE });
    expect(await jobsRepo.offeredJobIds(pro.id)).not.toContain(job.id);
    const tracked = await invoke(track, withPath(sampleEvent('get-tracked-request'), { id: job.id }));
    expect(tracked.body).toMatchObject({ jobState: 'cancelled', cancelMessage: MESSAGE });
  });

  it('frees the pro who held the job before the work started', async () => {
    // Prepare
    const category = testCategory();
    const pro = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [pro.id]);
    const now = new Date().toISOString();
    await jobsRepo.accept({ jobId: job.id, workerId: pro.id, hourlyRate: 5000, now, arriveBy: new Date(Date.now() + 3_600_000).toISOString() });

    // Act
    const res = await cancel(job.id);

    // Assess
    expect(res.status).toBe(200);
    expect((await workersRepo.findById(pro.id))!.activeJobId).toBeUndefined();
    expect((await jobsRepo.findById(job.id))!.state).toBe('cancelled');
  });

  it('refuses once the work has started, saying what to do instead', async () => {
    // Prepare
    const category = testCategory();
    const pro = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [pro.id]);
    const now = new Date().toISOString();
    await jobsRepo.accept({ jobId: job.id, workerId: pro.id, hourlyRate: 5000, now, arriveBy: new Date(Date.now() + 3_600_000).toISOString() });
    await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'accepted', to: 'in_progress', stamp: 'startedAt', now });

    // Act
    const res = await cancel(job.id);

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/started the work/);
    expect((await jobsRepo.findById(job.id))!.state).toBe('in_progress');
  });

  it('leaves exactly one result when the owner cancels while the pro accepts', async () => {
    // Prepare
    const category = testCategory();
    const pro = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [pro.id]);
    const acceptEvent = withBearer(withBody(withPath(sampleEvent('accept-job'), { jobId: job.id }), {}), await workerToken(pro.id));

    // Act
    const [cancelled, accepted] = await Promise.all([cancel(job.id), invoke(accept, acceptEvent)]);

    // Assess
    expect([cancelled.status, accepted.status].sort()).toEqual([200, 409]);
    const stored = (await jobsRepo.findById(job.id))!;
    const worker = (await workersRepo.findById(pro.id))!;
    if (cancelled.status === 200) {
      expect(stored.state).toBe('cancelled');
      expect(worker.activeJobId).toBeUndefined();
    } else {
      expect(stored.state).toBe('accepted');
      expect(worker.activeJobId).toBe(job.id);
      expect(cancelled.body.message).toMatch(/accepted this job a moment ago/);
    }
  });

  it('of two owners cancelling at once, records one cancellation', async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace());

    // Act
    const results = await Promise.all([cancel(job.id), cancel(job.id, 'A second message.')]);

    // Assess
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    expect(winner.body.timeline.filter((e: { type: string }) => e.type === 'cancelled')).toHaveLength(1);
  });

  it('requires a message of at most 500 characters', async () => {
    // Prepare
    const job = await testJob(testCategory(), testPlace());

    // Act
    const empty = await cancel(job.id, '   ');
    const long = await cancel(job.id, 'x'.repeat(501));

    // Assess
    expect(empty.status).toBe(400);
    expect(long.status).toBe(400);
    expect((await jobsRepo.findById(job.id))!.state).toBe('booked');
  });

  it('answers 404 for a job that does not exist', async () => {
    expect((await cancel(newId())).status).toBe(404);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('cancel-job'))).status).toBe(401);
  });
});
