import { describe, expect, it } from 'vitest';
import { handler, VERIFY_ON_LEAD } from './submit-client-verification';
import { completedBy, takenBy, testCrew } from '../testing/crews';
import { offerNext } from '../jobs/dispatch';
import { handler as completeJob } from '../jobs/complete-job';
import { invoicesRepo } from './data/invoices';
import { jobsRepo } from '../jobs/data/jobs';
import { newId } from '../common/ids';
import { dispatchableWorker, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { asCustomer, completedJob, invoicedJob } from '../testing/money';
import { withBearer, workerToken } from '../testing/workers';
import { NOTES_REQUIRED } from '../../shared/schemas/invoice';

const sample = sampleEvent('submit-client-verification');

async function finished() {
  const worker = await dispatchableWorker(testCategory(), null);
  const job = await completedJob(worker.categories[0]!, worker);
  return { worker, job };
}

const answer = async (customerId: string, body: Record<string, unknown>) =>
  invoke(handler, await asCustomer(withBody(sample, { verificationType: 'work_verification', ...body }), customerId));

describe('POST /api/client-verification', () => {
  it('approves the completed work: the job is verified and the worker may invoice it', async () => {
    // Prepare
    const { worker, job } = await finished();

    // Act
    const res = await answer(job.customerId, { serviceRequestId: job.id, workerId: worker.id, verificationStatus: 'approved', verificationNotes: null, clientId: 'ignored' });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, jobId: job.id, state: 'verified', verificationStatus: 'approved' });
    expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'verified', verificationStatus: 'approved', verificationAt: expect.any(String) });
  });

  it('refuses a rejection without notes, saying notes are required, and changes nothing', async () => {
    const { job } = await finished();

    const res = await answer(job.customerId, { serviceRequestId: job.id, verificationStatus: 'rejected', verificationNotes: '   ' });

    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ verificationNotes: NOTES_REQUIRED });
    expect((await jobsRepo.findById(job.id))?.state).toBe('completed');
  });

  it("sends rejected work back to the worker with the customer's notes; completing again adds the extra time", async () => {
    // Prepare
    const { worker, job } = await finished();

    // Act
    const res = await answer(job.customerId, { serviceRequestId: job.id, verificationStatus: 'rejected', verificationNotes: 'The tap still drips.' });

    // Assess
    expect(res.body).toMatchObject({ ok: true, state: 'in_progress', verificationStatus: 'rejected' });
    const reopened = await jobsRepo.findById(job.id);
    expect(reopened).toMatchObject({ state: 'in_progress', clientNotes: 'The tap still drips.', reworkCount: 1, priorHours: 1, endedAt: null });
    expect((await jobsRepo.listHeldBy(worker.id)).map((j) => j.id)).toContain(job.id);

    // Act: the worker completes it again
    const token = await workerToken(worker.id);
    const done = await invoke(completeJob, withBearer(withPath(withBody(sampleEvent('complete-job'), {}), { id: job.id }), token));

    // Assess: billed hours keep the first round's hour and add the (quarter-hour rounded) rework
    expect(done.status).toBe(200);
    const completed = await jobsRepo.findById(job.id);
    expect(completed).toMatchObject({ state: 'completed' });
    expect(completed?.totalHours).toBeGreaterThanOrEqual(1);
    expect(completed?.totalHours).toBeLessThanOrEqual(1.3);
    expect((await jobsRepo.listCompletedBy(worker.id)).map((j) => j.id)).toContain(job.id);
  });

  it('answers a second verdict on the same work with 409', async () => {
    const { job } = await finished();
    await answer(job.customerId, { serviceRequestId: job.id, verificationStatus: 'approved' });

    const res = await answer(job.customerId, { serviceRequestId: job.id, verificationStatus: 'rejected', verificationNotes: 'Changed my mind' });

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('You have already approved this work.');
    expect((await jobsRepo.findById(job.id))?.state).toBe('verified');
  });

  it('lets exactly one of two concurrent verdicts through', async () => {
    const { job } = await finished();

    const results = await Promise.all([
      answer(job.customerId, { serviceRequestId: job.id, verificationStatus: 'approved' }),
      answer(job.customerId, { serviceRequestId: job.id, verificationStatus: 'rejected', verificationNotes: 'Not done' }),
    ]);

    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("answers another customer's job as a missing one (404), and refuses work not yet completed (409)", async () => {
    // Prepare
    const { job } = await finished();
    const worker = await dispatchableWorker(testCategory(), null);
    const notDone = await completedJob(worker.categories[0]!, worker).then((j) => jobsRepo.recordVerification({ jobId: j.id, customerId: j.customerId, approved: false, notes: 'again', now: new Date().toISOString() }));

    // Act
    const stranger = await answer(newId(), { serviceRequestId: job.id, verificationStatus: 'approved' });
    const early = await answer(notDone.customerId, { serviceRequestId: notDone.id, verificationStatus: 'approved' });

    // Assess
    expect(stranger.status).toBe(404);
    expect(early.status).toBe(409);
    expect((await jobsRepo.findById(job.id))?.state).toBe('completed');
  });

  it('refuses a verification naming another professional (403)', async () => {
    const { job } = await finished();

    const res = await answer(job.customerId, { serviceRequestId: job.id, workerId: newId(), verificationStatus: 'approved' });

    expect(res.status).toBe(403);
    expect((await jobsRepo.findById(job.id))?.state).toBe('completed');
  });

  it('treats an approved invoice_verification as Verify Work on an invoice made before approving the work verified it', async () => {
    const { job, invoice } = await invoicedJob({ verified: false });

    const res = await answer(job.customerId, { serviceRequestId: job.id, verificationType: 'invoice_verification', verificationStatus: 'approved' });

    expect(res.status).toBe(200);
    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ workVerified: true });
  });

  it('answers invoice_verification of an invoice approving the work already verified with success, changing nothing', async () => {
    const { job, invoice } = await invoicedJob();

    const res = await answer(job.customerId, { serviceRequestId: job.id, verificationType: 'invoice_verification', verificationStatus: 'approved' });

    expect(res.status).toBe(200);
    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ workVerified: true, workVerifiedAt: invoice.workVerifiedAt });
  });

  it('refuses worker_verification with a message saying why and what to send', async () => {
    const { job } = await finished();

    const res = await answer(job.customerId, { serviceRequestId: job.id, verificationType: 'worker_verification', verificationStatus: 'approved' });

    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/ID is checked before they are approved/);
    expect(res.body.message).toMatch(/work_verification/);
  });
});

describe('POST /api/client-verification: a crew', () => {
  /** A crew of three: two pros completed, the third job found nobody. */
  async function finishedCrew() {
    const category = testCategory();
    const [a, b] = await Promise.all([dispatchableWorker(category, null, { isAvailable: false }), dispatchableWorker(category, null, { isAvailable: false })]);
    const [lead, second, third] = await testCrew(category, null, 3);
    await completedBy(lead!, a.id);
    await completedBy(second!, b.id);
    await offerNext(third!.id);
    return { lead: lead!, second: second!, third: third! };
  }

  it('approves the work of every pro who completed, once, on the request, and stops looking for the pro nobody took', async () => {
    // Prepare
    const { lead, second, third } = await finishedCrew();

    // Act
    const res = await answer(lead.customerId, { serviceRequestId: lead.id, verificationStatus: 'approved' });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, jobId: lead.id, state: 'verified', verificationStatus: 'approved' });
    expect((await jobsRepo.findById(second.id))!).toMatchObject({ state: 'verified', verificationStatus: 'approved' });
    expect((await jobsRepo.findById(third.id))!.state).toBe('cancelled');
  });

  it('sends every completed pro back to work with the notes when the customer asks for changes', async () => {
    const { lead, second, third } = await finishedCrew();

    const res = await answer(lead.customerId, { serviceRequestId: lead.id, verificationStatus: 'rejected', verificationNotes: 'The tiles are uneven' });

    expect(res.status).toBe(200);
    for (const id of [lead.id, second.id]) expect(await jobsRepo.findById(id)).toMatchObject({ state: 'in_progress', clientNotes: 'The tiles are uneven' });
    expect((await jobsRepo.findById(third.id))!.state).not.toBe('cancelled');
  });

  it('leaves one result when two answers are sent at once', async () => {
    const { lead, second } = await finishedCrew();

    const results = await Promise.all([
      answer(lead.customerId, { serviceRequestId: lead.id, verificationStatus: 'approved' }),
      answer(lead.customerId, { serviceRequestId: lead.id, verificationStatus: 'rejected', verificationNotes: 'Not done' }),
    ]);

    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const states = (await jobsRepo.findMany([lead.id, second.id])).map((j) => j.state);
    expect(new Set(states).size).toBe(1);
  });

  it('waits while a pro is still working, saying how many', async () => {
    // Prepare: pro 1 completed, pro 2 still at work
    const category = testCategory();
    const [a, b] = await Promise.all([dispatchableWorker(category, null, { isAvailable: false }), dispatchableWorker(category, null, { isAvailable: false })]);
    const [lead, member] = await testCrew(category, null, 2);
    await completedBy(lead!, a.id);
    await takenBy(member!, b.id);

    // Act
    const res = await answer(lead!.customerId, { serviceRequestId: lead!.id, verificationStatus: 'approved' });

    // Assess
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/One pro is still working/);
    expect((await jobsRepo.findById(lead!.id))!.state).toBe('completed');
  });

  it("refuses a member's own verification, pointing to the request's page", async () => {
    const { lead, second } = await finishedCrew();

    const res = await answer(lead.customerId, { serviceRequestId: second.id, verificationStatus: 'approved' });

    expect(res.status).toBe(409);
    expect(res.body.message).toBe(VERIFY_ON_LEAD);
    expect((await jobsRepo.findById(second.id))!.state).toBe('completed');
  });
});
