import type { AttentionReason, JobAdminRow } from '../../../../shared/schemas/owner-jobs';
import type { BadgeTone } from '../../components/ui/badge';
import { label } from './format';

/**
 * How the owner's job screens say a job's state: a job whose search ended with nobody is stored as
 * booked, and shows as "No pro found", never as "Booked".
 */
export function jobStateText(job: Pick<JobAdminRow, 'state' | 'dispatch'>): string {
  if (job.state === 'booked' && job.dispatch === 'no_worker_available') return 'No pro found';
  if (job.state === 'booked' || job.state === 'offered') return 'Finding a pro';
  return label(job.state);
}

export function jobStateTone(job: Pick<JobAdminRow, 'state' | 'dispatch'>): BadgeTone {
  if (job.state === 'booked' && job.dispatch === 'no_worker_available') return 'red';
  if (job.state === 'cancelled') return 'slate';
  if (job.state === 'paid' || job.state === 'verified' || job.state === 'completed') return 'green';
  if (job.state === 'booked' || job.state === 'offered') return 'amber';
  return 'blue';
}

export const attentionText: Record<AttentionReason, string> = {
  payment_failed: 'Payment failed',
  arrival_overdue: 'Pro overdue',
  no_pro: 'No pro found',
  offered_too_long: 'Searching over 10 min',
};

/** The invoice and payment in a few words: "Not invoiced", "Invoiced · awaiting payment", "Paid". */
export function moneyText(job: Pick<JobAdminRow, 'invoiceId' | 'paymentStatus'>): string {
  if (!job.invoiceId) return 'Not invoiced';
  switch (job.paymentStatus) {
    case 'paid':
      return 'Invoiced · paid';
    case 'failed':
      return 'Invoiced · payment failed';
    case 'processing':
      return 'Invoiced · payment processing';
    default:
      return 'Invoiced · awaiting payment';
  }
}
