import type { MailMessage } from '../message';

/**
 * Links that set a pro account's password, mailed only to the address the application gave: whoever
 * opens one proves they read that mailbox, which is what makes the account theirs. The secret
 * travels in the fragment (`#token=`), which a browser never sends to a server.
 */

/** How long a link asked for on the signup page works, in seconds. */
export const ACCOUNT_LINK_SECONDS = 60 * 60;

/**
 * How long the link in the "application received" and "approved" mails works: the applicant may
 * come back to those mails days later, so a week (the signup page sends a new one after that).
 */
export const MAILED_ACCOUNT_LINK_SECONDS = 7 * 24 * 60 * 60;

/** The signup page's path with the link's secret in its fragment (web/src/lib/paths.ts has the page). */
export function accountLinkPath(secret: string): string {
  return `/worker/signup#token=${encodeURIComponent(secret)}`;
}

/**
 * To an applicant who asked for a link on the signup page: the single-use link, how long it works,
 * and what it does when an account already exists for the address. Keyed by the link's own id.
 */
export function workerAccountLink(link: { id: string; secret: string; to: string; name: string; hasAccount: boolean }): MailMessage {
  return {
    kind: 'worker-account-link',
    subjectId: link.id,
    to: link.to,
    subject: 'Your link to set up your Fixly pro account',
    paragraphs: [
      `Hi ${link.name},`,
      link.hasAccount
        ? 'Someone asked for a link to set the password of the Fixly pro account for this email address. An account already exists for it: choosing a password with the link below replaces the old one and signs every device out.'
        : 'Someone asked for a link to create the Fixly pro account for this email address. If it was you, choose your password with the link below.',
      'The link works once, for 60 minutes. If you did not ask for it, ignore this mail: nothing changes until the link is used.',
    ],
    action: { label: link.hasAccount ? 'Set your password' : 'Create your worker account', path: accountLinkPath(link.secret) },
    secretLinkSeconds: ACCOUNT_LINK_SECONDS,
  };
}
