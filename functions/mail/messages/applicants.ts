import type { CompanyApplicationItem, WorkerApplicationItem } from '../../../shared/entities';
import type { MailMessage } from '../message';
import { accountLinkPath, MAILED_ACCOUNT_LINK_SECONDS } from './worker-accounts';

/**
 * Mails to people applying: pros and companies. The links are the site's own pages
 * (web/src/lib/paths.ts has the same paths): the sender puts the site's origin before them.
 */

/**
 * To a worker applicant, when their application is stored: received, what happens next, and the
 * single-use link that makes their account now (`accountSecret`, stored with the application).
 */
export function workerApplicationReceived(
  application: Pick<WorkerApplicationItem, 'id' | 'fullName' | 'emailAddress'>,
  accountSecret: string,
): MailMessage {
  return {
    kind: 'worker-application-received',
    subjectId: application.id,
    to: application.emailAddress,
    subject: 'We received your application to work with Fixly',
    paragraphs: [
      `Hi ${application.fullName},`,
      'Thank you for applying to work with Fixly. Your application is in, and we will review it within 2-3 business days: your documents and background first, then your skills.',
      'You can create your worker account now with the link below. It shows where your application stands, and becomes your dashboard the moment you are approved. The link works once, for 7 days; the signup page sends a new one to this address whenever you need it.',
    ],
    action: { label: 'Create your worker account', path: accountLinkPath(accountSecret) },
    secretLinkSeconds: MAILED_ACCOUNT_LINK_SECONDS,
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

/**
 * To a worker applicant, when the owner approves them: welcome, and the one link that matters. An
 * applicant who made their account while under review signs in (the approval turned that account
 * active); otherwise they create it now with a fresh single-use link (`accountSecret`, stored with
 * the approval).
 */
export function applicationApproved(
  application: Pick<WorkerApplicationItem, 'id' | 'fullName' | 'emailAddress'>,
  applicant: { hasAccount: true } | { hasAccount: false; accountSecret: string },
): MailMessage {
  return {
    kind: 'application-approved',
    subjectId: application.id,
    to: application.emailAddress,
    subject: 'Welcome to Fixly: your application is approved',
    paragraphs: [
      `Hi ${application.fullName},`,
      'Good news: we approved your application to work with Fixly. Welcome aboard!',
      applicant.hasAccount
        ? 'Your worker account is active now. Sign in to open your dashboard, and go on call to start receiving job offers.'
        : 'Create your worker account with the link below to open your dashboard, then go on call to start receiving job offers. The link works once, for 7 days; the signup page sends a new one to this address whenever you need it.',
    ],
    ...(applicant.hasAccount
      ? { action: { label: 'Sign in to your dashboard', path: '/worker/login' } }
      : { action: { label: 'Create your worker account', path: accountLinkPath(applicant.accountSecret) }, secretLinkSeconds: MAILED_ACCOUNT_LINK_SECONDS }),
  };
}

/** To a worker applicant the owner did not approve: the owner's notes (always given with a rejection), kindly. */
export function applicationRejected(
  application: Pick<WorkerApplicationItem, 'id' | 'fullName' | 'emailAddress'>,
  notes: string,
): MailMessage {
  return {
    kind: 'application-rejected',
    subjectId: application.id,
    to: application.emailAddress,
    subject: 'About your application to work with Fixly',
    paragraphs: [
      `Hi ${application.fullName},`,
      'Thank you for your interest in working with Fixly and for the time you took to apply. We reviewed your application carefully, and we are not able to approve it at this time.',
      `Our reviewer's notes: ${notes}`,
      'We are sorry not to bring better news, and we wish you all the best with your work.',
    ],
  };
}

/**
 * To a company's contact, when the owner decides its application: approved (with the owner's notes
 * if any) or not approved (with the notes, always given then), and its status page, as in the mail
 * that told them it was received.
 */
export function companyApplicationDecided(
  application: Pick<CompanyApplicationItem, 'id' | 'companyName' | 'contactPersonName' | 'emailAddress'>,
  decision: { status: 'approved' | 'rejected'; notes?: string | null },
): MailMessage {
  const approved = decision.status === 'approved';
  return {
    kind: 'company-application-decided',
    subjectId: application.id,
    to: application.emailAddress,
    subject: approved ? `${application.companyName}'s application is approved` : `About ${application.companyName}'s application`,
    paragraphs: [
      `Hi ${application.contactPersonName},`,
      approved
        ? `Good news: we approved ${application.companyName}'s application to work with Fixly. Welcome aboard: we will contact you to set up your first crew.`
        : `Thank you for applying on behalf of ${application.companyName}. We reviewed the application carefully, and we are not able to approve it at this time.`,
      ...(decision.notes ? [`Our reviewer's notes: ${decision.notes}`] : []),
      'The application\'s page shows the decision at any time.',
    ],
    action: { label: 'See the decision', path: `/apply/company/status/${encodeURIComponent(application.id)}` },
  };
}
