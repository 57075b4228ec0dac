import { isWithinLastWeek } from '../../../../shared/domain/earnings';
import { paymentListLabel } from '../../../../shared/domain/invoice';
import type { CompletedJobView } from '../../../../shared/schemas/job';
import type { BadgeTone } from '../../components/ui/badge';

export interface EarningsSummary {
  /** Sum of the worker's shares, cents (the invoice's share once invoiced). */
  totalCents: number;
  /** Sum of the shares of jobs that ended in the last 7 days, cents. */
  weekCents: number;
  /** Sum of the shares of jobs whose invoice the customer has paid, cents. */
  paidCents: number;
  jobsCompleted: number;
  /** Newest first. */
  history: CompletedJobView[];
}

/**
 * The earnings page's figures, all from the worker's share (after the platform fee), never the
 * job's full amount. The server swaps in the invoice's figures once a job is invoiced, so these
 * are what was billed rather than the estimate from the clock.
 */
export function summarizeEarnings(jobs: readonly CompletedJobView[], now = Date.now()): EarningsSummary {
  let totalCents = 0;
  let weekCents = 0;
  let paidCents = 0;
  for (const job of jobs) {
    totalCents += job.workerShare;
    if (isWithinLastWeek(job.endedAt, now)) weekCents += job.workerShare;
    if (job.paymentStatus === 'paid') paidCents += job.workerShare;
  }
  const history = [...jobs].sort((a, b) => (Date.parse(b.endedAt) || 0) - (Date.parse(a.endedAt) || 0));
  return { totalCents, weekCents, paidCents, jobsCompleted: jobs.length, history };
}

/** Completed jobs the customer approved and the worker has not invoiced yet, oldest first (longest waiting). */
export function readyToInvoice(jobs: readonly CompletedJobView[]): CompletedJobView[] {
  return jobs.filter((job) => job.canInvoice && !job.invoiceId).sort((a, b) => (Date.parse(a.endedAt) || 0) - (Date.parse(b.endedAt) || 0));
}

export interface RowState {
  label: string;
  tone: BadgeTone;
}

type PaymentFields = Pick<CompletedJobView, 'canInvoice' | 'invoiceId' | 'paymentStatus'>;

/**
 * Where a finished job's money stands: before an invoice, whether the customer approved the work;
 * after, the invoice's payment state in the words the customer's invoice list uses.
 */
export function paymentStateOf(job: PaymentFields): RowState {
  if (!job.invoiceId) {
    return job.canInvoice ? { label: 'Ready to invoice', tone: 'amber' } : { label: 'Awaiting approval', tone: 'slate' };
  }
  // An invoice whose status has not reached this view yet was just created: it awaits payment.
  const label = paymentListLabel(job.paymentStatus ?? 'pending');
  const tone: BadgeTone = label === 'Paid' ? 'green' : label === 'Payment Failed' ? 'red' : label === 'Processing' ? 'blue' : 'yellow';
  return { label, tone };
}

/** Where the worker's share went once the customer paid; nothing to say before that. */
export function payoutLabelOf(job: Pick<CompletedJobView, 'paymentStatus' | 'payoutStatus'>): string | null {
  if (job.paymentStatus !== 'paid') return null;
  if (job.payoutStatus === 'transferred') return 'Transferred';
  if (job.payoutStatus === 'held') return 'Held until payouts are set up';
  return 'Transfer pending';
}
