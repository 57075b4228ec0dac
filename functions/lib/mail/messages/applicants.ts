import type { CompanyApplicationItem, WorkerApplicationItem } from '../../../../shared/entities';
import type { MailMessage } from '../message';

/**
 * Mails to people applying: pros and companies. The links are the site's own pages
 * (web/src/lib/paths.ts has the same paths): the sender puts the site's origin before them.
 */

/** To a worker applicant, when their application is stored: received, what happens next, and the account to make now. */
export function workerApplicationReceived(application: Pick<WorkerApplicationItem, 'id' | 'fullName' | 'emailAddress'>): MailMessage {
  return {
    kind: 'worker-application-received',
    subjectId: application.id,
    to: application.emailAddress,
    subject: 'We received your application to work with Fixly',
    paragraphs: [
      `Hi ${application.fullName},`,
      'Thank you for applying to work with Fixly. Your application is in, and we will review it within 2-3 business days: your documents and background first, then your skills.',
      'You can create your worker account now with this email address. It shows where your application stands, and becomes your dashboard the moment you are approved.',
    ],
    action: { label: 'Create your worker account', path: '/worker/signup' },
  };
}

/** To a company's contact, when its application is stored: received, and the link to follow it. */
export function companyApplicationReceived(
  application: Pick<CompanyApplicationItem, 'id' | 'companyName' | 'contactPersonName' | 'emailAddress'>,
): MailMessage {
  return {
    kind: 'company-application-received',
    subjectId: application.id,
    to: application.emailAddress,
    subject: `We received ${application.companyName}'s application`,
    paragraphs: [
      `Hi ${application.contactPersonName},`,
      `Thank you for applying on behalf of ${application.companyName}. We will review the application within 2-3 business days and write to you here with our decision.`,
      `Your reference is ${application.id}. Keep this mail: its link shows the application's status at any time, and anyone with it can see that status.`,
    ],
    action: { label: 'Check your application', path: `/apply/company/status/${encodeURIComponent(application.id)}` },
  };
}
