import { dollarsToCents } from '../../shared/domain/invoice';
import { routeByName } from '../../shared/routes';
import { createInvoiceSchema } from '../../shared/schemas/invoice';
import { invoiceForJob, InvoiceRefused, invoicesRepo } from './data/invoices';
import type { JobItem } from '../jobs/data/jobs';
import { cardFeeRates, env } from '../common/env';
import { crewLineInvoiced } from './crew-bill-events';
import { ConflictError, NotFoundError } from '../common/errors';
import { http, reply } from '../common/http';
import { outboxPuts } from '../mail/data/mail';
import { billReady, invoiceReady } from '../mail/messages/customers';
import { completedCrewBill } from './crew-bills';
import { mailRepo } from '../mail/data/mail';
import { newId } from '../common/ids';
import { toInvoiceView } from './invoice-views';
import { invoiceCreated } from '../jobs/job-events';
import { logger } from '../common/logger';
import { JOB_NOT_FOUND, jobForWorker } from '../jobs/worker-jobs';
import { requireOwnWorkerId } from '../workers/worker-scope';

function refusalFor(job: JobItem | undefined): Error {
  if (!job) return new NotFoundError(JOB_NOT_FOUND);
  if (job.invoiceId) return new ConflictError('This job already has an invoice.');
  if (job.state === 'completed') return new ConflictError('The customer has not approved the work yet. You can invoice once they do.');
  if (job.state === 'in_progress' && job.verificationStatus === 'rejected') return new ConflictError('The customer asked for changes. Complete the work again first.');
  return new ConflictError(`A job that is ${job.state.replace('_', ' ')} cannot be invoiced.`);
}

/**
 * The worker invoices a job the customer approved: labour hours (theirs to correct, one decimal) at
 * the rate agreed when they accepted, plus the rush fee the job was sent with, plus materials, plus
 * the card fee on the charge (none on a crew's line); the total and the fee split are computed here
 * in cents. One invoice per job, written together with the job's invoiceId.
 */
export const handler = http(routeByName('create-invoice'), createInvoiceSchema, async ({ params, body, caller }) => {
  const worker = caller.worker;
  requireOwnWorkerId(worker, body.workerId ?? undefined);
  const job = await jobForWorker(params.id, worker);
  if (job.acceptedBy !== worker.id || job.state !== 'verified' || job.invoiceId) throw refusalFor(job);

  const invoice = invoiceForJob(job, worker, {
    id: newId(),
    laborHours: body.laborHours,
    materialsCents: dollarsToCents(body.materialsCost ?? 0),
    notes: body.notes?.trim() || null,
    feePercent: env.PLATFORM_FEE_PERCENT,
    cardFee: cardFeeRates(),
    now: new Date().toISOString(),
  });
  try {
    // The customer's "invoice ready" mail is stored with the invoice: one per invoice.
    const ready = invoiceReady(invoice);
    await invoicesRepo.create(invoice, outboxPuts(ready));
  } catch (error) {
    if (error instanceof InvoiceRefused) throw refusalFor(error.job);
    throw error;
  }
  // A crew's line is announced as part of its bill, which is paid once every pro has invoiced.
  await (invoice.crewRequestId ? crewLineInvoiced(invoice) : invoiceCreated(invoice));
  // The last line of a crew's bill completes it: the customer is mailed its total once (keyed by the request).
  if (invoice.crewRequestId) {
    const bill = await completedCrewBill(invoice.crewRequestId);
    const ready = bill && billReady(bill.lead, { total: bill.total, lines: bill.lines.length });
    await mailRepo.queue(ready);
  }
  logger.info('Invoice created', { jobId: job.id, invoiceId: invoice.id, totalCents: invoice.totalAmount });
  return reply(201, toInvoiceView(invoice, 'worker'));
});
