import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { invoiceForJob, invoicesRepo, type InvoiceItem } from '../payments/data/invoices';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import type { WorkerItem } from '../workers/data/workers';
import { newId } from '../common/ids';
import { cardFeeRates } from '../common/env';
import { markIssued } from './customers';
import { dispatchableWorker, offeredJob, testCategory } from './dispatch';

/** Fixtures for the money calls: jobs walked along the real lifecycle, invoices made as create-invoice makes them. */

const now = () => new Date().toISOString();

/** A job the worker accepted, worked and completed (1 billable hour). */
export async function completedJob(category: string, worker: WorkerItem): Promise<JobItem> {
  const job = await offeredJob(category, [worker.id]);
  await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: worker.hourlyRate, now: now(), arriveBy: new Date(Date.now() + 60_000).toISOString() });
  await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now: now() });
  await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: now() });
  return jobsRepo.complete({ jobId: job.id, workerId: worker.id, now: now(), totalHours: 1 });
}

/** A completed job whose customer approved the work: the worker may invoice it. */
export async function approvedJob(overrides: Partial<WorkerItem> = {}): Promise<{ worker: WorkerItem; job: JobItem }> {
  const worker = await dispatchableWorker(testCategory(), null, overrides);
  const done = await completedJob(worker.categories[0]!, worker);
  const job = await jobsRepo.recordVerification({ jobId: done.id, customerId: done.customerId, approved: true, notes: null, now: now() });
  return { worker, job };
}

/**
 * An approved job with its invoice (2.5 h at the worker's rate + $42.50 materials, 10% fee). An
 * invoice of approved work is verified from the start; `verified: false` makes one as invoices were
 * made before that rule (waiting for the invoice's own Verify Work), which stored data may still hold.
 */
export async function invoicedJob(options: { verified?: boolean; worker?: Partial<WorkerItem> } = {}) {
  const { worker, job } = await approvedJob(options.worker);
  const made = invoiceForJob(job, worker, { id: newId(), laborHours: 2.5, materialsCents: 4250, notes: null, feePercent: 10, cardFee: cardFeeRates(), now: now() });
  const invoice: InvoiceItem = options.verified === false ? { ...made, workVerified: false, workVerifiedAt: null } : made;
  await invoicesRepo.create(invoice);
  return { worker, job: (await jobsRepo.findById(job.id))!, invoice };
}

/**
 * The event as sent by the customer `customerId`, their identity stored as issued (as their first
 * booking would have): a job's own customer, or any other id for "another customer".
 */
export async function asCustomer(event: APIGatewayProxyEventV2, customerId: string): Promise<APIGatewayProxyEventV2> {
  return { ...event, cookies: [await markIssued(customerId)] };
}
