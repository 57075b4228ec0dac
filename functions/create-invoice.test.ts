import { describe, expect, it } from 'vitest';
import { handler } from './create-invoice';
import { invoicesRepo } from './lib/data/invoices';
import { jobsRepo } from './lib/data/jobs';
import { dispatchableWorker, testCategory } from './lib/testing/dispatch';
import { invoke, sampleEvent, withBody, withPath } from './lib/testing/events';
import { approvedJob, completedJob } from './lib/testing/money';
import { withBearer, workerToken } from './lib/testing/workers';

const sample = sampleEvent('create-invoice');

async function send(jobId: string, workerId: string, body: unknown) {
  return invoke(handler, withBearer(withPath(withBody(sample, body), { id: jobId }), await workerToken(workerId)));
}

describe('POST /api/jobs/{id}/invoice', () => {
  it('invoices an approved job at the agreed rate: hours x rate + materials, and the fee split, in cents', async () => {
    // Prepare: the worker's rate is $45/h
    const { worker, job } = await approvedJob({ hourlyRate: 4500 });

    // Act
    const res = await send(job.id, worker.id, { laborHours: 2.5, materialsCost: 42.5, notes: ' New cartridge ' });

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      serviceRequestId: job.id,
      workerId: worker.id,
      invoiceNumber: res.body.id.slice(-8).toUpperCase(),
      laborHours: 2.5,
      hourlyRate: 4500,
      materialsCost: 4250,
      totalAmount: 15500,
      platformFee: 1550,
      workerShare: 13950,
      feePercent: 10,
      notes: 'New cartridge',
      paymentStatus: 'pending',
      // Approving the finished work was the verification payment needs: the customer verifies once.
      workVerified: true,
      workVerifiedAt: job.verificationAt,
      payoutStatus: 'unpaid',
    });
    expect((await jobsRepo.findById(job.id))?.invoiceId).toBe(res.body.id);
    expect(await invoicesRepo.findById(res.body.id)).toMatchObject({ customerId: job.customerId, totalAmount: 15500 });
  });

  it('makes one invoice of two concurrent submissions; the other gets 409', async () => {
    const { worker, job } = await approvedJob();

    const results = await Promise.all([send(job.id, worker.id, { laborHours: 1 }), send(job.id, worker.id, { laborHours: 2 })]);

    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body.message).toBe('This job already has an invoice.');
    expect((await invoicesRepo.listForWorker(worker.id)).length).toBe(1);
  });

  it('refuses to invoice before the customer approves the work (409), and writes nothing', async () => {
    const worker = await dispatchableWorker(testCategory(), null);
    const job = await completedJob(worker.categories[0]!, worker);

    const res = await send(job.id, worker.id, { laborHours: 1 });

    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/not approved the work yet/);
    expect(await invoicesRepo.listForWorker(worker.id)).toEqual([]);
  });

  it("answers another worker's job with 404", async () => {
    const { job } = await approvedJob();
    const other = await dispatchableWorker(testCategory(), null);

    const res = await send(job.id, other.id, { laborHours: 1 });

    expect(res.status).toBe(404);
    expect((await jobsRepo.findById(job.id))?.invoiceId).toBeUndefined();
  });

  it.each([
    [{ laborHours: 0 }, 'laborHours', 'Labour hours must be at least 0.1'],
    [{ laborHours: 1.25 }, 'laborHours', 'Labour hours take one decimal at most'],
    [{ laborHours: 1, materialsCost: -1 }, 'materialsCost', 'Materials cannot be negative'],
    [{ laborHours: 1, materialsCost: 1.005 }, 'materialsCost', 'Materials take cents at most (2 decimals)'],
    [{ laborHours: 1, totalAmount: 1 }, '_', 'Unknown field: totalAmount'],
  ])('refuses %j with a message on %s, and writes nothing', async (body, field, message) => {
    const { worker, job } = await approvedJob();

    const res = await send(job.id, worker.id, body);

    expect(res.status).toBe(400);
    expect(res.body.fields[field]).toBe(message);
    expect((await jobsRepo.findById(job.id))?.invoiceId).toBeUndefined();
  });
});
