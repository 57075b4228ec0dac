import { routeByName } from '../../shared/routes';
import { invoiceNumber } from '../../shared/domain/invoice';
import type { PaymentConfirmationView } from '../../shared/schemas/job';
import { anchorLine, crewBillOf, leadsACrew, type CrewBill } from './crew-bills';
import { invoicesRepo } from './data/invoices';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';

/**
 * A crew's bill, paid by one session: paid when every line is (by that session, when one is named);
 * the figures are the bill's, the pros named together.
 */
function billConfirmation(job: JobItem, bill: CrewBill, sessionId: string | undefined): PaymentConfirmationView {
  const first = anchorLine(bill);
  const paid = bill.status === 'paid' && (sessionId === undefined || bill.lines.every((l) => l.stripeSessionId === sessionId));
  const paidAt = bill.lines.reduce<string | null>((at, l) => (l.paidAt && (!at || l.paidAt > at) ? l.paidAt : at), null);
  return {
    jobId: job.id,
    paid,
    invoiceId: first?.id ?? null,
    invoiceNumber: first ? invoiceNumber(first.id) : null,
    service: job.service,
    workerName: bill.lines.length ? bill.lines.map((l) => l.workerName).join(', ') : null,
    totalAmount: first ? bill.total : null,
    platformFee: first ? bill.lines.reduce((sum, l) => sum + l.platformFee, 0) : null,
    workerShare: first ? bill.lines.reduce((sum, l) => sum + l.workerShare, 0) : null,
    feePercent: first?.feePercent ?? null,
    paidAt: paid ? paidAt : null,
    rated: job.rating !== undefined,
    // The bill's receipt goes to the request's address (functions/payments/payments.ts).
    receiptEmailed: paid && Boolean(job.customerEmail),
  };
}

/**
 * What the payment-success page may say, from the server rather than the address bar: paid only
 * when the job's invoice is paid (a crew's request: its whole bill), and (when the page names its
 * Checkout session) by that session. The job id is the same unguessable capability /track uses.
 */
export const handler = http(routeByName('get-payment-confirmation'), async ({ params, query }) => {
  const job = await jobsRepo.findById(params.id, false);
  if (!job) throw new NotFoundError('We could not find this job.');
  const sessionId = query.session_id;
  if (leadsACrew(job)) return billConfirmation(job, await crewBillOf(job), sessionId);
  const invoice = job.invoiceId ? await invoicesRepo.findById(job.invoiceId) : undefined;
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
    // The receipt goes to the address the invoice was made with (functions/payments/payments.ts).
    receiptEmailed: paid && Boolean(invoice?.customerEmail),
  } satisfies PaymentConfirmationView;
});
