import { describe, expect, it } from 'vitest';
import { handler } from './get-admin-job';
import { jobsRepo } from '../jobs/data/jobs';
import { newId } from '../common/ids';
import { dispatchableWorker, offeredJob, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent } from '../testing/events';
import { ownerCall } from '../testing/owner-jobs';

describe('GET /api/admin/jobs/{id}', () => {
  it('answers the job with every step of its history, in order, each with who made it', async () => {
    // Prepare: offered to two pros; one declines, the other takes it through to paid
    const category = testCategory();
    const decliner = await dispatchableWorker(category, null, { fullName: 'Dee Clines' });
    const pro = await dispatchableWorker(category, null, { fullName: 'Pat Fixer' });
    const job = await offeredJob(category, [decliner.id, pro.id]);
    const at = (() => {
      let t = Date.now();
      return () => new Date((t += 1000)).toISOString();
    })();
    await jobsRepo.withdrawOffer(job.id, decliner.id, at());
    await jobsRepo.accept({ jobId: job.id, workerId: pro.id, workerName: pro.fullName, hourlyRate: 5000, now: at(), arriveBy: new Date(Date.now() + 3_600_000).toISOString() });
    await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'accepted', to: 'en_route', stamp: 'enRouteAt', now: at() });
    await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'en_route', to: 'arrived', stamp: 'arrivedAt', now: at() });
    await jobsRepo.advance({ jobId: job.id, workerId: pro.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: at() });
    await jobsRepo.complete({ jobId: job.id, workerId: pro.id, now: at(), totalHours: 2 });
    await jobsRepo.recordVerification({ jobId: job.id, customerId: job.customerId, approved: true, notes: 'Great', now: at() });
    await jobsRepo.markPaid(job.id, at());

    // Act
    const res = await invoke(handler, await ownerCall('get-admin-job', job.id));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ id: job.id, state: 'paid', assignedPro: { id: pro.id, name: 'Pat Fixer' }, totalHours: 2 });
    expect(res.body).toMatchObject({ canCancel: false, canOffer: false, canReoffer: false, cancelMessage: null, openOffers: [] });
    const steps = res.body.timeline.map((e: { type: string }) => e.type);
    expect(steps).toEqual([
      'created',
      'offered',
      'offered',
      'offer_declined',
      'accepted',
      'en_route',
      'arrived',
      'started',
      'completed',
      'verification_approved',
      'paid',
    ]);
    const byType = (type: string) => res.body.timeline.find((e: { type: string }) => e.type === type);
    expect(byType('created').actor).toEqual({ role: 'customer', id: job.customerId, name: 'Test Customer' });
    expect(byType('offer_declined')).toMatchObject({ actor: { role: 'worker', id: decliner.id, name: 'Dee Clines' }, worker: { id: decliner.id, name: 'Dee Clines' } });
    expect(byType('accepted').actor).toEqual({ role: 'worker', id: pro.id, name: 'Pat Fixer' });
    expect(byType('verification_approved')).toMatchObject({ actor: { role: 'customer' }, detail: 'Great' });
    expect(byType('paid').actor.role).toBe('system');
  });

  it('records a second delivery of an expiry timer once', async () => {
    // Prepare
    const category = testCategory();
    const pro = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [pro.id], 1);
    const later = new Date(Date.now() + 5000).toISOString();

    // Act
    await jobsRepo.withdrawOffer(job.id, pro.id, later, later);
    await jobsRepo.withdrawOffer(job.id, pro.id, later, later);
    const res = await invoke(handler, await ownerCall('get-admin-job', job.id));

    // Assess
    expect(res.body.timeline.filter((e: { type: string }) => e.type === 'offer_expired')).toHaveLength(1);
  });

  it('answers 404 for a job that does not exist', async () => {
    const res = await invoke(handler, await ownerCall('get-admin-job', newId()));
    expect(res.status).toBe(404);
  });

  it('answers 401 without the owner session', async () => {
    expect((await invoke(handler, sampleEvent('get-admin-job'))).status).toBe(401);
  });
});
