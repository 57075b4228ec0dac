import { expect } from 'vitest';
import type { MailKind } from '../../shared/entities';
import { mailRepo } from '../mail/data/mail';
import { workerAccountLinks } from '../identity/data/worker-account-links';
import { ACCOUNT_LINK_SECONDS, workerAccountLink } from '../mail/messages/worker-accounts';

/** The secret in an account link (`/worker/signup#token=<secret>`), from a mail's path or text. */
export function accountTokenIn(text: string | undefined): string {
  const match = /\/worker\/signup#token=([A-Za-z0-9_%-]+)/.exec(text ?? '');
  expect(match, 'an account link in the mail').not.toBeNull();
  return decodeURIComponent(match![1]!);
}

/** The account link's secret in the outbox mail `kind` about `subjectId` (before the sender took the link out). */
export async function accountTokenInMail(kind: MailKind, subjectId: string): Promise<string> {
  const mail = await mailRepo.find(kind, subjectId);
  return accountTokenIn(mail?.action?.path);
}

/** The link in the "application received" mail of an application. */
export const receivedMailToken = (applicationId: string) => accountTokenInMail('worker-application-received', applicationId);

/** The link in the approval mail of an application approved without an account. */
export const approvalMailToken = (applicationId: string) => accountTokenInMail('application-approved', applicationId);

/** The stored link a secret names (usable), for repository-level tests. */
export async function accountLinkOf(token: string) {
  const found = await workerAccountLinks.find(token);
  if ('refused' in found) throw new Error(`account link refused: ${found.refused}`);
  return found.link;
}

/** A fresh link for `email`, issued and mailed as the signup page's request does: its secret. */
export async function issueAccountLink(email: string, seconds = ACCOUNT_LINK_SECONDS): Promise<string> {
  let secret = '';
  await workerAccountLinks.issue(email, seconds, (link) => {
    secret = link.secret;
    return workerAccountLink({ ...link, to: email, name: 'Test Worker', hasAccount: false });
  });
  return secret;
}
