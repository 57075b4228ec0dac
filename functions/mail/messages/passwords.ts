import type { SignInRole } from '../../../shared/entities';
import type { MailMessage } from '../message';

/**
 * Mails about a person's password, to whoever signs in with it: a pro or the owner. The link is a
 * credential, so its secret travels in the address's fragment (`#token=`), which a browser never
 * sends to a server: it reaches no access log, CloudFront's included.
 */

/** How long a reset link works, in seconds. */
export const RESET_LINK_SECONDS = 30 * 60;

/** The reset page's path with the link's secret in its fragment (web/src/lib/paths.ts has the page). */
export function resetLinkPath(secret: string): string {
  return `/reset-password#token=${encodeURIComponent(secret)}`;
}

const whose: Record<SignInRole, string> = {
  worker: 'your Fixly pro account',
  admin: 'the Fixly owner account',
};

/**
 * To a pro or the owner who asked for a new password: the single-use link, how long it works, and
 * what to do when they did not ask. Keyed by the link's own id (never its secret): one link, one mail.
 */
export function passwordReset(link: { id: string; secret: string; role: SignInRole; to: string; name: string }): MailMessage {
  return {
    kind: 'password-reset',
    subjectId: link.id,
    to: link.to,
    subject: 'Choose a new Fixly password',
    paragraphs: [
      `Hi ${link.name},`,
      `Someone asked for a new password for ${whose[link.role]} with this email address. If it was you, choose one with the link below: it works once, for 30 minutes, and signs you out everywhere you were signed in.`,
      'If you did not ask, ignore this mail: your password stays as it is.',
    ],
    action: { label: 'Choose a new password', path: resetLinkPath(link.secret) },
    secretLinkSeconds: RESET_LINK_SECONDS,
  };
}
