import { dollarsToCents } from '../../shared/domain/invoice';
import { routeByName } from '../../shared/routes';
import { checkoutSessionSchema, type CheckoutSessionResult } from '../../shared/schemas/invoice';
import { invoicesRepo, type InvoiceItem } from './data/invoices';
import { jobsRepo } from '../jobs/data/jobs';
import { ConflictError, NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { logger } from '../common/logger';
import { checkoutFor } from './payments';
import { siteOrigin } from '../common/site-origin';
import { orUnavailable } from '../common/transient';

const NOT_FOUND = 'Invoice not found';

/** The invoice either body names, if it is the caller's. */
async function customersInvoice(body: { invoiceId?: string; jobId?: string }, customerId: string): Promise<InvoiceItem> {
  let invoiceId = body.invoiceId;
  if (!invoiceId && body.jobId) {
    const job = await jobsRepo.findCustomersJob(body.jobId, customerId, false);
    if (!job) throw new NotFoundError(NOT_FOUND);
    if (!job.invoiceId) throw new ConflictError('The professional has not sent an invoice for this job yet.');
    invoiceId = job.invoiceId;
  }
  const invoice = await invoicesRepo.findById(invoiceId ?? '');
  if (!invoice || invoice.customerId !== customerId) throw new NotFoundError(NOT_FOUND);
  return invoice;
}

/**
 * Pay an invoice by Stripe Checkout. The amount is the invoice's and the payout account the
 * worker's on file; what the browser sends of either is never used to charge. Only a verified,
 * unpaid invoice of the caller's; its open session is handed back rather than a second one made.
 */
export const handler = http(routeByName('create-checkout-session'), checkoutSessionSchema, async ({ body, caller, event }) => {
  const invoice = await customersInvoice(body, caller.id);
  if (body.workerId && body.workerId !== invoice.workerId) throw new ConflictError('This invoice is from another professional.');
  if (body.amount !== undefined && dollarsToCents(body.amount) !== invoice.totalAmount) {
    throw new ConflictError(`The invoice total is $${(invoice.totalAmount / 100).toFixed(2)}. Reload the invoice and pay again.`);
  }
  // A crew's line is paid with the rest of its bill, by one charge.
  if (invoice.crewRequestId) throw new ConflictError("This invoice is part of your crew's bill. Pay the bill on the request's page.");
  if (invoice.paymentStatus === 'paid') throw new ConflictError('This invoice is already paid.');
  if (invoice.paymentStatus === 'processing') throw new ConflictError('A payment for this invoice is being processed. Check back shortly.');
  if (!invoice.workVerified) throw new ConflictError('Verify the work on this invoice before paying.');

  const target = await orUnavailable('Card payments cannot be reached right now; your invoice has not changed.', () => checkoutFor(invoice, siteOrigin(event)));
  if (target === 'complete') throw new ConflictError('This invoice has just been paid. It will show as Paid in a moment.');
  logger.info('Checkout session ready', { invoiceId: invoice.id, sessionId: target.sessionId });
  return { success: true, url: target.url, sessionId: target.sessionId, message: 'Redirecting to secure checkout' } satisfies CheckoutSessionResult;
});
