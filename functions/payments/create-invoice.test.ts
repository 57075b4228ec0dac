import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { jobEntity } from '../../shared/entities';
import { dynamo, tableName } from '../common/clients';
import { crewBillOf } from './crew-bills';
import { handler } from './create-invoice';
import { invoicesRepo } from './data/invoices';
import { notificationsRepo } from '../realtime/data/notifications';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import type { WorkerItem } from '../workers/data/workers';
import { dispatchableWorker, testCategory, testJob } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { invoicedCrew } from '../testing/crew-bills';
import { approvedJob, completedJob } from '../testing/money';
import { mailsTo, outboxRecord } from '../testing/mail';
import { withBearer, workerToken } from '../testing/workers';
import { handler as sendMail } from '../mail/send-mail';

const sample = sampleEvent('create-invoice');
const now = () => new Date().toISOString();

/** `job` taken by `worker`, worked, completed and approved by its customer: ready to invoice. */
async function approvedJobOf(worker: WorkerItem, job: JobItem): Promise<JobItem> {
  await jobsRepo.addOffers(job, { [worker.id]: new Date(Date.now() + 60_000).toISOString() }, now());
  await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: worker.hourlyRate, now: now(), arriveBy: new Date(Date.now() + 60_000).toISOString() });
  await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now: now() });
  await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: now() });
  await jobsRepo.complete({ jobId: job.id, workerId: worker.id, now: now(), totalHours: 2 });
  return jobsRepo.recordVerification({ jobId: job.id, customerId: job.customerId, approved: true, notes: null, now: now() });
}

async function send(jobId: string, workerId: string, body: unknown) {
  return invoke(handler, withBearer(withPath(withBody(sample, body), { id: jobId }), await workerToken(workerId)));
}

describe('POST /api/jobs/{id}/invoice', () => {
  it('mails the customer once that the invoice is ready, with what it charges and the page to pay it on', async () => {
    // Prepare
    const { worker, job } = await approvedJob({ hourlyRate: 4500 });
    const res = await send(job.id, worker.id, { laborHours: 2, materialsCost: 10 });
    const record = await outboxRecord('invoice-ready', res.body.id);

    // Act: the table's stream hands the mail over, twice
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = (await mailsTo(job.customerEmail!)).filter((m) => (m.text ?? '').includes(`#${res.body.invoiceNumber}`));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Your Plumbing invoice is ready: $${(res.body.totalAmount / 100).toFixed(2)}`);
    expect(mails[0]!.text).toContain('2.0 h of labour at $45.00/h');
    expect(mails[0]!.text).toContain('materials of $10.00');
    expect(mails[0]!.text).toContain(`View and pay the invoice: http://localhost:3000/track#id=${job.id}`);
  });

  it('invoices an approved job at the agreed rate: hours x rate + materials, the fee split, and the card fee on the charge, in cents', async () => {
    // Prepare: the worker's rate is $45/h; the job was sent without an estimate (no rush fee)
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
      rushFee: 0,
      // ceil((155.00 + 0.30) / 0.971) = 159.94: the customer's charge covers the card processor's cut.
      transactionFee: 494,
      totalAmount: 15994,
      platformFee: 1550,
      workerShare: 13950,
      feePercent: 10,
      estimatedTotal: null,
      crewRequestId: null,
      notes: 'New cartridge',
      paymentStatus: 'pending',
      // Approving the finished work was the verification payment needs: the customer verifies once.
      workVerified: true,
      workVerifiedAt: job.verificationAt,
      payoutStatus: 'unpaid',
    });
    expect((await jobsRepo.findById(job.id))?.invoiceId).toBe(res.body.id);
    expect(await invoicesRepo.findById(res.body.id)).toMatchObject({ customerId: job.customerId, totalAmount: 15994 });
  });

  it("charges the rush fee the job was sent with, and shows the estimate's total beside the actual", async () => {
    // Prepare: sent as soon as possible with a $25 rush fee, estimated at $129.05
    const worker = await dispatchableWorker(testCategory(), null, { hourlyRate: 5000 });
    const estimate = { baseAmount: 10000, rushFee: 2500, platformFee: 1250, transactionFee: 405, totalCost: 12905, hours: 2, hourlyRate: 5000 };
    const job = await approvedJobOf(worker, await testJob(worker.categories[0]!, null, { estimate }));

    // Act
    const res = await send(job.id, worker.id, { laborHours: 2 });

    // Assess: the same figures the estimate promised for the same hours
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ rushFee: 2500, platformFee: 1250, workerShare: 11250, transactionFee: 405, totalAmount: 12905, estimatedTotal: 12905 });
  });

  it('invoices a scheduled job without a rush fee', async () => {
    const worker = await dispatchableWorker(testCategory(), null, { hourlyRate: 5000 });
    const estimate = { baseAmount: 10000, rushFee: 0, platformFee: 1000, transactionFee: 330, totalCost: 10330, hours: 2, hourlyRate: 5000 };
    const job = await approvedJobOf(worker, await testJob(worker.categories[0]!, null, { estimate }));

    const res = await send(job.id, worker.id, { laborHours: 2 });

    expect(res.body).toMatchObject({ rushFee: 0, transactionFee: 330, totalAmount: 10330, estimatedTotal: 10330 });
  });

  it("makes a crew pro's invoice a line of the crew's bill: its part of the rush fee, no card fee of its own, verified with the bill, the customer told when the bill is complete", async () => {
    // Prepare: a crew of two, the second pro has worked and not invoiced yet
    const crew = await invoicedCrew([{}, { uninvoiced: true }]);
    const worker = crew.workers[1]!;

    // Act
    const res = await send(crew.jobs[1]!.id, worker.id, { laborHours: 2 });

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      rushFee: 2500,
      transactionFee: 0,
      totalAmount: 12500,
      platformFee: 1250,
      workerShare: 11250,
      estimatedTotal: Math.round(crew.lead.estimate!.totalCost / 2),
      crewRequestId: crew.lead.id,
      workVerified: false,
    });
    // The last pro's invoice completes the bill: the customer is told once, of the whole bill, on the request's page.
    const told = (await notificationsRepo.latest('customer', crew.customerId)).filter((n) => n.title === 'Bill ready');
    expect(told).toEqual([expect.objectContaining({ jobId: crew.lead.id, actionUrl: `/track#id=${crew.lead.id}` })]);
    expect((await notificationsRepo.latest('customer', crew.customerId)).filter((n) => n.title === 'Invoice ready')).toEqual([]);
  });

  it("mails a crew's customer once, when the last pro's invoice completes the bill, with its total and the request's page", async () => {
    // Prepare: a crew of two whose customer gave an address of its own; the first pro has invoiced
    const email = `bill-${crypto.randomUUID()}@example.com`;
    const crew = await invoicedCrew([{}, { uninvoiced: true }]);
    await dynamo.send(new UpdateCommand({ TableName: tableName, Key: jobEntity.key(crew.lead.id), UpdateExpression: 'SET customerEmail = :e', ExpressionAttributeValues: { ':e': email } }));

    // Act: the last pro invoices, and the mail's record is delivered twice
    const res = await send(crew.jobs[1]!.id, crew.workers[1]!.id, { laborHours: 2 });
    const record = await outboxRecord('bill-ready', crew.lead.id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess: the whole bill (both lines and the one card fee), not the line
    expect(res.status).toBe(201);
    const bill = await crewBillOf((await jobsRepo.findById(crew.lead.id))!);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Your Plumbing bill is ready: $${(bill.total / 100).toFixed(2)}`);
    expect(mails[0]!.text).toContain('for 2 pros');
    expect(mails[0]!.text).toContain(`View and pay the bill: http://localhost:3000/track#id=${crew.lead.id}`);
  });

  it("mails no bill while a pro of the crew has still to invoice", async () => {
    const crew = await invoicedCrew([{ uninvoiced: true }, { uninvoiced: true }]);

    const res = await send(crew.jobs[1]!.id, crew.workers[1]!.id, { laborHours: 2 });

    expect(res.status).toBe(201);
    await expect(outboxRecord('bill-ready', crew.lead.id)).rejects.toThrow('No outbox mail');
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
