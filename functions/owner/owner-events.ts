import type { NotificationView } from '../../shared/realtime';
import { mailRepo } from '../mail/data/mail';
import type { NewNotification } from '../realtime/data/notifications';
import { ownerRepo } from '../identity/data/owner';
import { logger } from '../common/logger';
import type { MailMessage } from '../mail/message';
import { ownerDocumentsWaiting, ownerNewApplication } from '../mail/messages/owner';
import { ownerConsoleUrl } from '../common/page-links';
import { OWNER_PUSH_ID } from '../realtime/push-caller';
import { notify } from '../realtime/realtime';

/**
 * What the owner is told: the moments the console needs them for (someone applied, a document waits
 * for review, a job found no pro, a strike or an appeal, a payment that failed). Each is a stored
 * notification on the owner's channel (the bell's history and the batch on connect), sent live to
 * every console the owner has open, and, being high priority, pushed to every browser the owner
 * enabled push on (the table's stream feeds deliver-push). Its link opens the console's tab where
 * the owner acts on it.
 *
 * Called after the state change is written, and only by the call whose conditional write made it:
 * a retried request or a webhook delivered twice finds the write already done and tells nothing
 * again. Delivery never fails that call (notify swallows and logs its own failures).
 *
 * The texts carry only what the console already shows the owner (names, services, amounts), never
 * contact details, addresses, identity numbers or payment details.
 *
 * A new application and a document waiting for review also go to the owner's mailbox (the address
 * given at setup; none without one), queued in the outbox keyed by the application's or document's
 * id, so even a repeated call mails once.
 */

/** There is one owner, and their channel is fixed (the socket joins it, the bell and push read it). */
const OWNER = OWNER_PUSH_ID;

export { ownerConsoleUrl };

/** The notification types the owner's bell receives (the console refreshes the matching tab on each). */
export const ownerNotificationTypes = {
  workerApplication: 'owner_worker_application',
  companyApplication: 'owner_company_application',
  documentAwaitingReview: 'owner_document_review',
  jobWithNoPro: 'owner_job_no_pro',
  strikeRecorded: 'owner_strike_recorded',
  strikeAppealed: 'owner_strike_appealed',
  paymentFailed: 'owner_payment_failed',
} as const;

type OwnerNotice = Omit<NewNotification, 'priority' | 'jobId'> & { priority?: NotificationView['priority']; jobId?: string | null };

async function tellOwner(notice: OwnerNotice): Promise<void> {
  await notify('owner', OWNER, { priority: 'high', jobId: null, ...notice });
}

/** Keeps a free-text part (a reason, a name) to a line the bell and a push can show. */
function line(text: string, max = 140): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * Queues the owner's mail, built for their address (null without one: nothing is sent). The change
 * it tells about is stored already, so a failure here is logged and never fails the call.
 */
async function mailOwner(build: (ownerEmail: string | undefined) => MailMessage | null): Promise<void> {
  try {
    await mailRepo.queue(build((await ownerRepo.find())?.email));
  } catch (error) {
    logger.error('Could not queue the owner\'s mail', { errorName: (error as Error)?.name });
  }
}

export async function newWorkerApplication(application: { id: string; fullName: string; servicesProvided?: readonly string[] }): Promise<void> {
  const services = application.servicesProvided?.length ? ` (${line(application.servicesProvided.join(', '), 80)})` : '';
  await tellOwner({
    type: ownerNotificationTypes.workerApplication,
    title: 'New worker application',
    message: `${line(application.fullName, 80)} applied to work${services}. Review it in Applications.`,
    actionUrl: ownerConsoleUrl.applications,
  });
  await mailOwner((to) =>
    ownerNewApplication(to, { id: application.id, kind: 'worker', name: line(application.fullName, 80), services: application.servicesProvided }),
  );
}

export async function newCompanyApplication(application: { id: string; companyName: string }): Promise<void> {
  await tellOwner({
    type: ownerNotificationTypes.companyApplication,
    title: 'New company application',
    message: `${line(application.companyName, 80)} applied as a company. Review it in Applications.`,
    actionUrl: ownerConsoleUrl.applications,
  });
  await mailOwner((to) => ownerNewApplication(to, { id: application.id, kind: 'company', name: line(application.companyName, 80) }));
}

export async function documentAwaitingReview(document: { id: string; categoryName: string; workerName?: string | null }): Promise<void> {
  const who = document.workerName ? `${line(document.workerName, 80)} uploaded` : 'A worker uploaded';
  await tellOwner({
    type: ownerNotificationTypes.documentAwaitingReview,
    title: 'Document awaiting review',
    message: `${who} a ${line(document.categoryName, 80)} to review.`,
    actionUrl: ownerConsoleUrl.documents,
  });
  await mailOwner((to) =>
    ownerDocumentsWaiting(to, { id: document.id, categoryName: line(document.categoryName, 80), workerName: document.workerName ? line(document.workerName, 80) : null }),
  );
}

/** The search for a pro ended with nobody: the customer was told; the owner may offer it by hand. */
export async function jobWithNoPro(job: { id: string; service: string }): Promise<void> {
  await tellOwner({
    type: ownerNotificationTypes.jobWithNoPro,
    title: 'Job with no pro',
    message: `No pro took the ${line(job.service, 80)} job. Offer it to a pro or follow up with the customer.`,
    actionUrl: ownerConsoleUrl.job(job.id),
    jobId: job.id,
  });
}

export async function strikeRecorded(strike: { workerId: string; workerName: string; reason: string; jobId?: string | null }): Promise<void> {
  await tellOwner({
    type: ownerNotificationTypes.strikeRecorded,
    title: 'Strike recorded',
    message: `${line(strike.workerName, 80)} received a strike: ${line(strike.reason)}.`,
    actionUrl: ownerConsoleUrl.workers,
    jobId: strike.jobId ?? null,
  });
}

export async function strikeAppealed(appeal: { workerId: string; workerName: string; jobId?: string | null }): Promise<void> {
  await tellOwner({
    type: ownerNotificationTypes.strikeAppealed,
    title: 'Strike appealed',
    message: `${line(appeal.workerName, 80)} appealed a strike. Decide it in Workers.`,
    actionUrl: ownerConsoleUrl.workers,
    jobId: appeal.jobId ?? null,
  });
}

/**
 * A customer's payment failed after they left the payment page (a bank debit that bounced): the
 * invoice is unpaid again. The invoice's short number and the amount, as the invoices list shows
 * them; never Stripe's payment details.
 */
export async function paymentFailed(payment: { invoiceId: string; jobId: string; amount: number; service?: string }): Promise<void> {
  const what = payment.service ? ` for the ${line(payment.service, 80)} job` : '';
  await tellOwner({
    type: ownerNotificationTypes.paymentFailed,
    title: 'Payment failed',
    message: `A payment of ${dollars(payment.amount)}${what} failed (invoice #${payment.invoiceId.slice(-8).toUpperCase()}). The invoice is unpaid again.`,
    actionUrl: ownerConsoleUrl.job(payment.jobId),
    jobId: payment.jobId,
  });
}
