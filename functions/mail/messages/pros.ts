import type { DocumentItem, JobItem, WorkerItem, WorkerPenaltyItem } from '../../../shared/entities';
import { daysUntil } from '../../../shared/domain/documents';
import { requestNumber } from '../../../shared/domain/requests';
import type { MailMessage } from '../message';
import { dollars } from './format';

/**
 * Mails to pros, at their account's address (the one their application was made with). The links
 * are the site's own pages (web/src/lib/paths.ts has the same paths): the sender puts the site's
 * origin before them.
 */

const DASHBOARD = '/worker/dashboard';

const inDays = (days: number) => (days === 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`);

/**
 * A compliance document's expiry date is near (the reminder `due` 30, then 7 days before):
 * upload a current one on the Documents tab before it lapses, or offers pause when a required one
 * expires with no other. One mail per document and reminder: the subject is `<document id>:<due>`.
 * A document uploaded with less than 30 days left gets its first reminder later than 30 days
 * ahead, so the text counts the days from `today`.
 */
export function documentExpiring(
  worker: Pick<WorkerItem, 'fullName' | 'email'>,
  doc: Pick<DocumentItem, 'id' | 'categoryName' | 'expirationDate'>,
  due: 30 | 7,
  today: string,
): MailMessage | null {
  if (!worker.email || !doc.expirationDate) return null;
  const days = daysUntil(doc.expirationDate, today);
  return {
    kind: 'document-expiring',
    subjectId: `${doc.id}:${due}`,
    to: worker.email,
    subject: `Your ${doc.categoryName} expires ${inDays(days)}`,
    paragraphs: [
      `Hi ${worker.fullName},`,
      `Your ${doc.categoryName} on file with Fixly expires on ${doc.expirationDate}, ${inDays(days)}.`,
      'Upload a current one on your dashboard\'s Documents tab before then: once a required document expires with no other valid one, job offers pause until a current one is approved.',
    ],
    action: { label: 'Upload a current document', path: DASHBOARD },
  };
}

const reasonText: Record<WorkerPenaltyItem['reason'], string> = {
  late_arrival: 'you did not arrive within the arrival time of a job you accepted, so it went to another pro',
};

/**
 * A strike was recorded against the pro: the job, the reason, their count (and the suspension it
 * brought, if it reached the limit), and that they can appeal it from their dashboard. The subject
 * is the strike's id: one mail per strike.
 */
export function strikeRecorded(
  worker: Pick<WorkerItem, 'fullName' | 'email'>,
  strike: Pick<WorkerPenaltyItem, 'id' | 'reason'>,
  job: Pick<JobItem, 'id' | 'service'>,
  outcome: { strikes: number; strikesToSuspend: number; suspended: boolean },
): MailMessage | null {
  if (!worker.email) return null;
  const number = requestNumber(job.id);
  return {
    kind: 'strike-recorded',
    subjectId: strike.id,
    to: worker.email,
    subject: outcome.suspended ? 'A strike was recorded and your account is suspended' : 'A strike was recorded on your account',
    paragraphs: [
      `Hi ${worker.fullName},`,
      `We recorded a strike on your account for the ${job.service} job #${number}: ${reasonText[strike.reason]}.`,
      outcome.suspended
        ? `You now have ${outcome.strikes} strikes. At ${outcome.strikesToSuspend} the account is suspended, so you will not receive offers until the owner reviews your record.`
        : `You now have ${outcome.strikes} of the ${outcome.strikesToSuspend} strikes that suspend an account until the owner reviews it.`,
      outcome.suspended
        ? 'If you think it is wrong, appeal it: sign in, and the page your dashboard shows lists each strike with its Appeal button.'
        : 'If you think it is wrong, appeal it on your dashboard\'s Strikes tab, saying what happened. The owner decides every appeal.',
    ],
    action: { label: outcome.suspended ? 'Open your dashboard' : 'See your strikes', path: DASHBOARD },
  };
}

/**
 * To the pro, when their share of a paid invoice is on its way to their payout account (paid
 * straight to it by the charge, or a held share transferred later): the amount, the job, and their
 * invoices page. The subject is the invoice: its share is paid out once.
 */
export function payoutSent(
  worker: Pick<WorkerItem, 'fullName' | 'email'>,
  invoice: { id: string; jobId: string; service: string; workerShare: number },
): MailMessage | null {
  if (!worker.email) return null;
  const amount = dollars(invoice.workerShare);
  return {
    kind: 'payout-sent',
    subjectId: invoice.id,
    to: worker.email,
    subject: `${amount} is on its way to you`,
    paragraphs: [
      `Hi ${worker.fullName},`,
      `The customer paid for the ${invoice.service} job #${requestNumber(invoice.jobId)}, and your share, ${amount}, has been sent to your payout account.`,
      'Your bank shows it once Stripe pays it out, usually within a few business days. Every invoice and its payout is on your invoices page.',
    ],
    action: { label: 'See your invoices', path: '/invoices' },
  };
}
