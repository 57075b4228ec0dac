import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { mailKinds, type OutboundMailItem } from '../shared/entities';
import { mailRepo } from './lib/data/mail';
import { env } from './lib/env';
import { logger, withRequestContext } from './lib/logger';
import { renderMail } from './lib/mail/render';
import { isRefusal, mailConfigured, sendMail } from './lib/mail/send';

/**
 * The outbox mail a stream record carries, if it is one. The event source mapping's filter
 * (shared/routes.ts) already passes only new outbound-mail items; this checks again, so anything
 * else is ignored, never sent.
 */
export function outboundMail(record: DynamoDBRecord): OutboundMailItem | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>) as Partial<OutboundMailItem>;
  if (item.entity !== 'outbound-mail' || !item.kind || !(mailKinds as readonly string[]).includes(item.kind)) return undefined;
  if (typeof item.subjectId !== 'string' || typeof item.to !== 'string' || typeof item.subject !== 'string' || !Array.isArray(item.paragraphs)) {
    return undefined;
  }
  return item as OutboundMailItem;
}

/**
 * Fed by the table's stream: each new outbox mail (shared/entities/mail.ts) goes out through SES.
 * The user's call that caused it only wrote the item, so a mail that fails here never failed them.
 *
 * Once per event, as far as it can be: the mail is claimed (pending → sending, a 60 s lease) before
 * SES is called and marked sent after, both conditional, so a record delivered twice, a retried
 * batch or a replay finds it claimed or sent and sends nothing. The one gap is at-least-once by
 * nature: when SES took the message but the function died (or the mark failed) before marking it
 * sent, the lease lapses and a retry sends it again. An address suppressed (it bounced or
 * complained) is not mailed: the mail is settled as suppressed. A message SES refuses itself (a bad
 * address) is settled as refused, not retried; anything else (SES throttling or unreachable) gives
 * the claim back and reports the record, so the stream tries it again.
 */
export const handler = withRequestContext(async (event: DynamoDBStreamEvent, _context?: Context): Promise<DynamoDBBatchResponse> => {
  if (!mailConfigured()) {
    logger.warn('Mail not configured (MAIL_FROM, SITE_URL): the mails stay in the outbox, pending', { records: event.Records.length });
    return { batchItemFailures: [] };
  }
  const failures: DynamoDBBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      const mail = outboundMail(record);
      if (!mail) return;
      const { kind, subjectId } = mail;
      const secretLink = Boolean(mail.secretLink);
      try {
        const claimed = await mailRepo.claim(kind, subjectId);
        if (!claimed) {
          logger.info('Mail already sent or being sent', { kind });
          return;
        }
        if (await mailRepo.isSuppressed(claimed.to)) {
          await mailRepo.settleUnsent(kind, subjectId, 'suppressed', undefined, secretLink);
          logger.info('Mail not sent: the address bounced or complained before', { kind });
          return;
        }
        let rendered: ReturnType<typeof renderMail>;
        try {
          rendered = renderMail(claimed, env.SITE_URL!, env.SUPPORT_EMAIL);
        } catch (error) {
          // A link that is not a path on the site: no retry makes it one.
          await mailRepo.settleUnsent(kind, subjectId, 'refused', (error as Error).message, secretLink);
          logger.warn('Mail not rendered: not retried', { kind, errorName: (error as Error).name });
          return;
        }
        let messageId: string;
        try {
          messageId = await sendMail(rendered);
        } catch (error) {
          if (isRefusal(error)) {
            await mailRepo.settleUnsent(kind, subjectId, 'refused', `${(error as Error).name}: ${(error as Error).message}`, secretLink);
            logger.warn('Mail refused by SES: not retried', { kind, errorName: (error as Error).name });
            return;
          }
          await mailRepo.release(kind, subjectId);
          throw error;
        }
        await mailRepo.markSent(kind, subjectId, messageId, secretLink);
        logger.info('Mail sent', { kind });
      } catch (error) {
        logger.warn('Mail failed: the record is retried', { kind, errorName: (error as Error)?.name });
        if (record.dynamodb?.SequenceNumber) failures.push({ itemIdentifier: record.dynamodb.SequenceNumber });
      }
    }),
  );
  return { batchItemFailures: failures };
});
