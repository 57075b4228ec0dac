import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { mailKinds, type OutboundMailItem } from '../../shared/entities';
import { SES_SEND_LIMIT_MS } from '../common/clients';
import { deliverMail } from './deliver';
import { logger, withRequestContext } from '../common/logger';
import { mailConfigured } from './send';

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

/** The deployed timeout (infra/function-defaults.ts), for a call without a Lambda context (a test, `npm run invoke`). */
const FUNCTION_TIMEOUT_MS = 10_000;
/** Kept back from the wait on a live lease, for the claim and the mark around the send. */
const WAIT_MARGIN_MS = 500;

/**
 * Fed by the table's stream: each new outbox mail (shared/entities/mail.ts) goes out through SES.
 * The user's call that caused it only wrote the item, so a mail that fails here never failed them.
 *
 * Once per event, as far as it can be (functions/mail/deliver.ts): the mail is claimed
 * (pending → sending, a 60 s lease) before SES is called and marked sent after, both conditional,
 * so a record delivered twice, a retried batch or a replay finds it claimed or sent and sends
 * nothing. The one gap is at-least-once by nature: when SES took the message but the function died
 * before marking it sent, the lease lapses and the mail is sent again.
 *
 * A record that finds the mail claimed by a sender whose lease is still running is not dropped:
 * that sender may have died. When the lease ends within this run's time (leaving enough for the
 * send), it waits and tries the claim again; otherwise it reports the record, so the event source
 * mapping tries it again later. Should the mapping give up first, the sweeper (sweep-mail-outbox)
 * sends the mail once the lease lapses.
 */
export const handler = withRequestContext(async (event: DynamoDBStreamEvent, context?: Context): Promise<DynamoDBBatchResponse> => {
  const started = Date.now();
  const remainingMs = () => (context?.getRemainingTimeInMillis ? context.getRemainingTimeInMillis() : FUNCTION_TIMEOUT_MS - (Date.now() - started));
  if (!mailConfigured()) {
    logger.warn('Mail not configured (MAIL_FROM, SITE_URL): the mails stay in the outbox, pending', { records: event.Records.length });
    return { batchItemFailures: [] };
  }
  const failures: DynamoDBBatchResponse['batchItemFailures'] = [];
  // One send per mail, however many of the batch's records carry it: a copy would only meet the
  // lease its twin holds in this very run.
  const sends = new Map<string, Promise<boolean>>();
  await Promise.all(
    event.Records.map(async (record) => {
      const mail = outboundMail(record);
      if (!mail) return;
      const key = `${mail.kind}#${mail.subjectId}`;
      if (!sends.has(key)) sends.set(key, send(mail, remainingMs));
      if (!(await sends.get(key)!) && record.dynamodb?.SequenceNumber) failures.push({ itemIdentifier: record.dynamodb.SequenceNumber });
    }),
  );
  return { batchItemFailures: failures };
}, 'send-mail');

/** Sends one outbox mail of the batch: false when its record is to be tried again. */
async function send(mail: OutboundMailItem, remainingMs: () => number): Promise<boolean> {
  const { kind, subjectId } = mail;
  const secretLink = Boolean(mail.secretLink);
  try {
    let delivery = await deliverMail(kind, subjectId, secretLink);
    if (delivery.outcome === 'busy') {
      // The claim may be taken once the clock's second is past the lease's.
      const waitMs = (delivery.leaseUntil + 1) * 1000 - Date.now();
      if (waitMs > remainingMs() - SES_SEND_LIMIT_MS - WAIT_MARGIN_MS) {
        logger.info('Mail claimed by another sender: the record is retried after its lease', { kind });
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(waitMs, 0)));
      delivery = await deliverMail(kind, subjectId, secretLink);
    }
    if (delivery.outcome === 'busy') {
      logger.info('Mail claimed again by another sender: the record is retried', { kind });
      return false;
    }
    if (delivery.outcome === 'done') logger.info('Mail already sent or settled', { kind });
    return true;
  } catch (error) {
    logger.warn('Mail failed: the record is retried', { kind, errorName: (error as Error)?.name });
    return false;
  }
}
