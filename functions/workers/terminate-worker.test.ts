import { describe, expect, it } from 'vitest';
import { handler as enforceArrival } from '../arrival/enforce-arrival';
import { sessions } from '../common/auth/sessions';
import { jobHistory } from '../jobs/data/job-history';
import { jobsRepo } from '../jobs/data/jobs';
import { penaltiesRepo } from '../arrival/data/penalties';
import { workersRepo } from './data/workers';
import { north, offeredJob } from '../testing/dispatch';
import { strikablePro } from '../testing/strikes';
import { newId } from '../common/ids';
import { asOwner } from '../testing/applications';
import { invoke, withBody } from '../testing/events';
import { handler as suspend } from './suspend-worker';
import { handler } from './terminate-worker';
import { createTestWorker } from '../testing/workers';

/** An approved, active pro. */
async function approvedWorker(): Promise<string> {
  return (await createTestWorker()).id;
}

const REASON = 'Two no-shows in a week after warnings.';
const terminate = async (id: string, body: unknown = { reason: REASON }) => invoke(handler, withBody(await asOwner('terminate-worker', { id }), body));

describe('POST /api/admin/workers/{id}/terminate', () => {
  it('terminates an active worker, whatever their strikes, with the reason they are shown, and ends their sessions', async () => {
    // Prepare
    const workerId = await approvedWorker();
    const { secret } = await sessions.start('worker', workerId, 'worker@example.com');

    // Act
    const res = await terminate(workerId);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: workerId, status: 'terminated', strikes: 0, isAvailable: false, statusReason: REASON, statusChangedAt: expect.any(String) });
    expect(await workersRepo.findById(workerId)).toMatchObject({ status: 'terminated', isAvailable: false, statusReason: REASON, terminatedAt: expect.any(String) });
    expect(await sessions.find(secret)).toBeUndefined();
  });

  it('sends a job the pro was on the way to back to dispatch, without a strike, and the arrival timer later finds nothing to do', async () => {
    // Prepare: the pro accepted a job and set off; the deadline has passed but the timer has not fired yet.
    const pro = await strikablePro();
    const job = await offeredJob(pro.categories[0]!, [pro.id], 120, north({ lat: pro.location!.lat, lng: pro.location!.lng }, 1));
    const now = Date.now();
    await jobsRepo.accept({ jobId: job.id, workerId: pro.id, hourlyRate: 4000, now: new Date(now - 60_000).toISOString(), arriveBy: new Date(now - 1000).toISOString() });
    await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'accepted', to: 'en_route', stamp: 'enRouteAt', now: new Date().toISOString() });

    // Act
    const res = await terminate(pro.id);
    await enforceArrival({ jobId: job.id, workerId: pro.id });

    // Assess
    expect(res.status).toBe(200);
    expect(await jobsRepo.findById(job.id)).toMatchObject({ dispatch: 'no_worker_available', acceptedBy: null, enRouteAt: null, reassignedCount: 1 });
    expect(await workersRepo.findById(pro.id)).toMatchObject({ status: 'terminated', strikes: 0 });
    expect(await penaltiesRepo.listOf(pro.id)).toEqual([]);
    const history = await jobHistory.list(job.id);
    expect(history.filter((e) => e.type === 'strike')).toEqual([]);
    expect(history.filter((e) => e.type === 'reassigned')).toEqual([
      expect.objectContaining({ actor: expect.objectContaining({ role: 'owner' }), detail: 'Back to dispatch: the owner terminated the pro (no strike).' }),
    ]);
  });

  it('terminates a suspended worker', async () => {
    const workerId = await approvedWorker();
    await invoke(suspend, withBody(await asOwner('suspend-worker', { id: workerId }), { reason: 'Under review.' }));

    const res = await terminate(workerId);

    expect(res.status).toBe(200);
    expect(res.body.status).toBe('terminated');
  });

  it('refuses to terminate a worker twice, keeping the first reason', async () => {
    const workerId = await approvedWorker();
    await terminate(workerId);

    const again = await terminate(workerId, { reason: 'Another reason.' });

    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ConflictError');
    expect((await workersRepo.findById(workerId))?.statusReason).toBe(REASON);
  });

  it.each([
    [{}, 'Give a reason the pro will see'],
    [{ reason: '   ' }, 'Give a reason the pro will see'],
    [{ reason: 'x'.repeat(501) }, 'Keep the reason under 500 characters'],
  ])('refuses %j with 400 and leaves the worker active', async (body, message) => {
    // Prepare
    const workerId = await approvedWorker();

    // Act
    const res = await terminate(workerId, body);

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields.reason).toBe(message);
    expect((await workersRepo.findById(workerId))?.status).toBe('active');
  });

  it('answers 404 for an unknown worker', async () => {
    expect((await terminate(newId())).status).toBe(404);
  });
});
