import { ownerConsoleUrl } from '../../common/page-links';
import type { MailMessage } from '../message';

/**
 * Mails to the owner, at the address given at setup (OwnerItem.email): none without one. The links
 * are the console's own pages (web/src/lib/paths.ts: the dashboard and its tabs); the sender puts
 * the site's origin before them. Like the bell, they carry only what the console shows the owner
 * (names, services, amounts), never an applicant's contact details or identity numbers.
 */


/** A new worker or company application waits for the owner's review. */
export function ownerNewApplication(
  ownerEmail: string | undefined,
  application: { id: string; kind: 'worker' | 'company'; name: string; services?: readonly string[] },
): MailMessage | null {
  if (!ownerEmail) return null;
  const worker = application.kind === 'worker';
  const services = application.services?.length ? ` (${application.services.join(', ')})` : '';
  return {
    kind: 'owner-new-application',
    subjectId: application.id,
    to: ownerEmail,
    subject: worker ? `New worker application: ${application.name}` : `New company application: ${application.name}`,
    paragraphs: [
      worker
        ? `${application.name} applied to work with Fixly${services}.`
        : `${application.name} applied to work with Fixly as a company.`,
      'Their application and documents wait for your review in the console\'s Applications tab.',
    ],
    action: { label: 'Review applications', path: ownerConsoleUrl.applications },
  };
}

/** A pro uploaded a compliance document that needs the owner's review before it counts. */
export function ownerDocumentsWaiting(
  ownerEmail: string | undefined,
  document: { id: string; categoryName: string; workerName?: string | null },
): MailMessage | null {
  if (!ownerEmail) return null;
  const who = document.workerName ?? 'A pro';
  return {
    kind: 'owner-documents-waiting',
    subjectId: document.id,
    to: ownerEmail,
    subject: `Document to review: ${document.categoryName}`,
    paragraphs: [
      `${who} uploaded a ${document.categoryName} that needs your review.`,
      'Approve it, or reject it with a note saying what to fix, in the console\'s Documents tab.',
    ],
    action: { label: 'Review documents', path: ownerConsoleUrl.documents },
  };
}

/** What the daily summary tells: one UTC day's figures, and what waits for the owner as it is sent. */
export interface DailySummary {
  /** The UTC day summarised, yyyy-mm-dd. */
  day: string;
  jobsSent: number;
  jobsCompleted: number;
  jobsPaid: number;
  /** The work's price of that day's payments (no card fees), and the platform's share of it. */
  grossCents: number;
  platformFeeCents: number;
  waiting: {
    workerApplications: number;
    companyApplications: number;
    /** Documents pending review; `documentsMore`: at least this many (the count stopped at its read limit). */
    documents: number;
    documentsMore: boolean;
    strikeAppeals: number;
  };
}

const money = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const dayText = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** The owner's morning mail: yesterday's jobs and money, and what waits for them now. */
export function ownerDailySummary(ownerEmail: string | undefined, summary: DailySummary): MailMessage | null {
  if (!ownerEmail) return null;
  const { waiting } = summary;
  const documents = `${waiting.documents}${waiting.documentsMore ? ' or more' : ''} ${waiting.documents === 1 && !waiting.documentsMore ? 'document' : 'documents'} to review`;
  return {
    kind: 'owner-daily-summary',
    subjectId: summary.day,
    to: ownerEmail,
    subject: `Fixly daily summary: ${summary.day}`,
    paragraphs: [
      `Here is how Fixly did on ${dayText(summary.day)} (UTC).`,
      `Jobs: ${summary.jobsSent} sent, ${summary.jobsCompleted} completed, ${summary.jobsPaid} paid.`,
      `Money: ${money(summary.grossCents)} in gross bookings, of which ${money(summary.platformFeeCents)} in platform fees.`,
      `Waiting for you now: ${count(waiting.workerApplications, 'worker application', 'worker applications')}, ${count(waiting.companyApplications, 'company application', 'company applications')}, ${documents} and ${count(waiting.strikeAppeals, 'strike appeal', 'strike appeals')}.`,
    ],
    action: { label: 'Open the console', path: ownerConsoleUrl.console },
  };
}
