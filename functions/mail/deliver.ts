import type { MailKind } from '../../shared/entities';
import { SES_SEND_LIMIT_MS } from '../common/clients';
import { mailRepo } from './data/mail';
import { env } from '../common/env';
import { logger } from '../common/logger';
import { renderMail } from './render';
import { isRefusal, sendMail } from './send';

/**
 * What became of one outbox mail: sent now; settled unsent (suppressed, refused); already done by
 * someone else (sent, settled, or gone); or `busy`, claimed by another sender whose lease has not
 * lapsed (epoch seconds it holds until), which may yet die without sending it.
 */
export type Delivery = { outcome: 'sent' | 'settled' | 'done' } | { outcome: 'busy'; leaseUntil: number };

/**
 * Sends one outbox mail, once: claims it (pending, or a lease that lapsed), checks the address is
 * not suppressed, renders it and hands it to SES, then marks it sent. Shared by the stream consumer
 * (send-mail) and the sweeper (sweep-mail-outbox), so both take the same conditional claim and the
 * mail goes out once whoever gets there first. A failure that may pass gives the claim back and is
 * thrown, for the caller's retry.
 */
export async function deliverMail(kind: MailKind, subjectId: string, secretLink: boolean, options: { sendersGoneBefore?: number } = {}): Promise<Delivery> {
  const claimed = await mailRepo.claim(kind, subjectId, options);
  if (!claimed) {
    const stored = await mailRepo.find(kind, subjectId);
    if (stored?.state === 'sending' && stored.leaseUntil !== undefined) return { outcome: 'busy', leaseUntil: stored.leaseUntil };
    return { outcome: 'done' };
  }
  if (await mailRepo.isSuppressed(claimed.to)) {
    await mailRepo.settleUnsent(kind, subjectId, 'suppressed', undefined, secretLink);
    logger.info('Mail not sent: the address bounced or complained before', { kind });
    return { outcome: 'settled' };
  }
  let rendered: ReturnType<typeof renderMail>;
  try {
    rendered = renderMail(claimed, env.SITE_URL!, env.SUPPORT_EMAIL);
  } catch (error) {
    // A link that is not a path on the site: no retry makes it one.
    await mailRepo.settleUnsent(kind, subjectId, 'refused', (error as Error).message, secretLink);
    logger.warn('Mail not rendered: not retried', { kind, errorName: (error as Error).name });
    return { outcome: 'settled' };
  }
  // A claim whose reads were slow enough to eat into its lease gives it back rather than let SES
  // still be working when someone else may claim the mail.
  if (claimed.leaseUntil === undefined || claimed.leaseUntil * 1000 - Date.now() <= SES_SEND_LIMIT_MS) {
    await mailRepo.release(kind, subjectId);
    throw new MailLeaseTooShortError();
  }
  let messageId: string;
  try {
    messageId = await sendMail(rendered);
  } catch (error) {
    if (isRefusal(error)) {
      await mailRepo.settleUnsent(kind, subjectId, 'refused', `${(error as Error).name}: ${(error as Error).message}`, secretLink);
      logger.warn('Mail refused by SES: not retried', { kind, errorName: (error as Error).name });
      return { outcome: 'settled' };
    }
    await mailRepo.release(kind, subjectId);
    throw error;
  }
  await mailRepo.markSent(kind, subjectId, messageId, secretLink);
  logger.info('Mail sent', { kind });
  return { outcome: 'sent' };
}

/** The claim had too little of its lease left to call SES within it: given back, to be tried again. */
export class MailLeaseTooShortError extends Error {
  override name = 'MailLeaseTooShortError';
  constructor() {
    super('The sending claim had too little time left for SES: given back');
  }
}
