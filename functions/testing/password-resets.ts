import { expect } from 'vitest';
import { passwordResetEntity, type PasswordResetItem, type SignInRole } from '../../shared/entities';
import { queryAll } from '../common/data/query';
import { handler as sendMail } from '../mail/send-mail';
import { mailsTo, outboxRecord } from './mail';

/** Every reset link stored for a person (live, used or expired), oldest first. */
export async function resetLinksOf(role: SignInRole, subjectId: string): Promise<PasswordResetItem[]> {
  return queryAll<PasswordResetItem>({ ...passwordResetEntity.indexes.of.range(role, subjectId), sk: undefined });
}

/** The secret in a reset mail's link (`/reset-password#token=<secret>`). */
export function tokenIn(text: string | undefined): string {
  const match = /\/reset-password#token=([A-Za-z0-9_-]+)/.exec(text ?? '');
  expect(match, 'a reset link in the mail').not.toBeNull();
  return decodeURIComponent(match![1]!);
}

/**
 * Hands the person's newest reset link's mail to the sender (as the table's stream does) and reads
 * the secret back from the mail the local SES kept for `to`: the link as the person receives it.
 */
export async function mailedResetToken(to: string, role: SignInRole, subjectId: string): Promise<string> {
  const links = await resetLinksOf(role, subjectId);
  const newest = links.at(-1);
  expect(newest, 'a stored reset link').toBeDefined();
  await sendMail({ Records: [await outboxRecord('password-reset', newest!.id)] });
  const mails = await mailsTo(to);
  return tokenIn(mails.at(-1)?.text);
}
