import { routeByName } from '../shared/routes';
import { invoiceNumber } from '../shared/domain/invoice';
import type { PaymentConfirmationView } from '../shared/schemas/job';
import { invoicesRepo } from './lib/data/invoices';
import { jobsRepo } from './lib/data/jobs';
import { NotFoundError } from './lib/errors';
import { http } from './lib/http';

/**
 * What the payment-success page may say, from the server rather than the address bar: paid only
 * when the job's invoice is paid, and (when the page names its Checkout session) by that session.
 * The job id is the same unguessable capability /track uses.
 */
export const handler = http(routeByName('get-payment-confirmation'), async ({ params, query }) => {
  const job = await jobsRepo.findById(params.id, false);
  if (!job) throw new NotFoundError('We could not find this job.');
  const invoice = job.invoiceId ? await invoicesRepo.findById(job.invoiceId) : undefined;
  const sessionId = query.session_id;
  const paid = invoice?.paymentStatus === 'paid' && (sessionId === undefined || invoice.stripeSessionId === sessionId);
  return {
    jobId: job.id,
    paid,
    invoiceId: invoice?.id ?? null,
    invoiceNumber: invoice ? invoiceNumber(invoice.id) : null,
    service: job.service,
    workerName: invoice?.workerName ?? null,
    totalAmount: invoice?.totalAmount ?? null,
    platformFee: invoice?.platformFee ?? null,
    workerShare: invoice?.workerShare ?? null,
    feePercent: invoice?.feePercent ?? null,
    paidAt: paid ? (invoice?.paidAt ?? null) : null,
    rated: job.rating !== undefined,
  } satisfies PaymentConfirmationView;
});
