import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mailSuppressionEntity, outboundMailEntity, type MailKind, type MailSuppressionItem, type OutboundMailItem } from '../../../shared/entities';
import { dynamo, tableName } from '../clients';
import type { MailMessage } from '../mail/message';
import { isNew, putOf, updateOf } from './expressions';
import { lostRace, tryUpdate } from './write';

/**
 * How long a sending claim holds. A container that dies between claiming and marking the mail sent
 * leaves the claim; once it lapses, the stream's retry (or an operator's replay) sends the mail.
 */
export const MAIL_SENDING_LEASE_SECONDS = 60;
/** An outbox item outlives the stream's 24 hours and the failed-batch replays of the runbook. */
const KEEP_SECONDS = 30 * 24 * 3600;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The outbox item a message becomes: pending, keyed by its event. */
export function outboxItem(message: MailMessage, now = new Date()): OutboundMailItem {
  return {
    ...outboundMailEntity.key(message.kind, message.subjectId),
    entity: 'outbound-mail',
    kind: message.kind,
    subjectId: message.subjectId,
    to: message.to.trim(),
    subject: message.subject,
    paragraphs: message.paragraphs,
    ...(message.action ? { action: message.action } : {}),
    ...(message.secretLinkSeconds ? { secretLink: true } : {}),
    state: 'pending',
    createdAt: now.toISOString(),
    // A credential's mail is worth nothing once its link has expired: it goes with it.
    expiresAt: Math.floor(now.getTime() / 1000) + (message.secretLinkSeconds ?? KEEP_SECONDS),
  };
}

/**
 * The outbox's put, for a transaction that stores the change the mail tells about: only when its
 * key is new, so the event's mail is written once (the change's own condition refuses a repeat
 * before this one could).
 */
export function outboxPut(message: MailMessage) {
  return { Put: putOf(outboundMailEntity, outboxItem(message), isNew) };
}

/** The outbox's put as a list to spread into a transaction: none when there is nobody to write to. */
export function outboxPuts(message: MailMessage | null | undefined) {
  return message ? [outboxPut(message)] : [];
}

export const mailRepo = {
  /**
   * Puts a mail in the outbox on its own, after the change it tells about was stored: false when
   * that event's mail is there already (a repeated event writes nothing), or when there is no
   * message (nobody to write to).
   */
  async queue(message: MailMessage | null | undefined): Promise<boolean> {
    if (!message) return false;
    try {
      await dynamo.send(new PutCommand(putOf(outboundMailEntity, outboxItem(message), isNew)));
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  },

  async find(kind: MailKind, subjectId: string): Promise<OutboundMailItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: outboundMailEntity.key(kind, subjectId), ConsistentRead: true }));
    return out.Item as OutboundMailItem | undefined;
  },

  /**
   * Takes the mail for this run: pending, or a claim that lapsed. Undefined when it was sent, is
   * being sent, or was settled otherwise (suppressed, refused): whatever delivers its record again.
   */
  async claim(kind: MailKind, subjectId: string): Promise<OutboundMailItem | undefined> {
    const now = nowSeconds();
    return tryUpdate(
      updateOf(outboundMailEntity, outboundMailEntity.key(kind, subjectId), {
        set: { state: 'sending', leaseUntil: now + MAIL_SENDING_LEASE_SECONDS },
        if: (c) => c.or(c.eq('state', 'pending'), c.and(c.eq('state', 'sending'), c.lt('leaseUntil', now))),
      }),
    );
  },

  /** `secretLink`: the mail's link is a credential, removed now that it went out. */
  async markSent(kind: MailKind, subjectId: string, messageId: string, secretLink = false): Promise<void> {
    await dynamo.send(
      new UpdateCommand(
        updateOf(outboundMailEntity, outboundMailEntity.key(kind, subjectId), {
          set: { state: 'sent', messageId, sentAt: new Date().toISOString() },
          // A secret link has done its job once sent: the table keeps no usable copy.
          remove: secretLink ? ['leaseUntil', 'action'] : ['leaseUntil'],
          if: (c) => c.eq('state', 'sending'),
        }),
      ),
    );
  },

  /** Gives the mail back when sending failed for a reason that may pass, so the stream's retry sends it. */
  async release(kind: MailKind, subjectId: string): Promise<void> {
    await tryUpdate(
      updateOf(outboundMailEntity, outboundMailEntity.key(kind, subjectId), {
        set: { state: 'pending' },
        remove: ['leaseUntil'],
        if: (c) => c.eq('state', 'sending'),
      }),
    );
  },

  /** Settles a mail that will not be sent: its address is suppressed, or SES refused the message itself. */
  async settleUnsent(kind: MailKind, subjectId: string, state: 'suppressed' | 'refused', refusal?: string, secretLink = false): Promise<void> {
    await tryUpdate(
      updateOf(outboundMailEntity, outboundMailEntity.key(kind, subjectId), {
        set: { state, ...(refusal ? { refusal: refusal.slice(0, 500) } : {}) },
        remove: secretLink ? ['leaseUntil', 'action'] : ['leaseUntil'],
        if: (c) => c.eq('state', 'sending'),
      }),
    );
  },

  async isSuppressed(email: string): Promise<boolean> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: mailSuppressionEntity.key(email), ConsistentRead: true }));
    return Boolean(out.Item);
  },

  /** Marks an address not to be mailed again (a permanent bounce, a complaint); the latest report wins. */
  async suppress(email: string, reason: MailSuppressionItem['reason'], detail?: string): Promise<void> {
    const item: MailSuppressionItem = {
      ...mailSuppressionEntity.key(email),
      entity: 'mail-suppression',
      email: email.trim().toLowerCase(),
      reason,
      ...(detail ? { detail: detail.slice(0, 200) } : {}),
      at: new Date().toISOString(),
    };
    await dynamo.send(new PutCommand(putOf(mailSuppressionEntity, item)));
  },
};
