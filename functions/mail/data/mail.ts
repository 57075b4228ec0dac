import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  MAIL_QUEUE_SHARDS,
  mailQueueShard,
  mailSuppressionEntity,
  outboundMailEntity,
  type MailKind,
  type MailSuppressionItem,
  type OutboundMailItem,
} from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import type { MailMessage } from '../message';
import { isNew, putOf, updateOf } from '../../common/data/expressions';
import { queryAll } from '../../common/data/query';
import { lostRace, tryUpdate } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

/**
 * How long a sending claim holds. A container that dies between claiming and marking the mail sent
 * leaves the claim; once it lapses, the stream's retry or the sweeper sends the mail. It must outlast
 * whoever holds it: send-mail is killed 10 s after it starts, and a claimant never calls SES once
 * less than the SES limit (functions/mail/send.ts) is left of its lease, so nobody is still
 * sending when someone else may claim again.
 */
export const MAIL_SENDING_LEASE_SECONDS = 60;
/**
 * How long a new (or given back) mail is the stream's alone before the sweeper may take it: the
 * stream hands a new item over within a second or two, so the sweeper only meets the mail it lost.
 */
export const MAIL_SWEEP_GRACE_SECONDS = 30;
/** An outbox item outlives the stream's 24 hours and the failed-batch replays of the runbook. */
const KEEP_SECONDS = 30 * 24 * 3600;

const nowSeconds = () => Math.floor(Date.now() / 1000);
const isoAt = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The sweeper's index entry of an unsent mail, which it may take from `dueAt` (epoch seconds) on. */
function unsentEntry(kind: MailKind, subjectId: string, dueAt: number) {
  return outboundMailEntity.indexes.unsent.key(mailQueueShard(outboundMailEntity.key(kind, subjectId).pk), isoAt(dueAt));
}

/** What the sweeper needs of an unsent mail to send it. */
export type UnsentMail = Pick<OutboundMailItem, 'kind' | 'subjectId' | 'secretLink'>;

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
    ...unsentEntry(message.kind, message.subjectId, Math.floor(now.getTime() / 1000) + MAIL_SWEEP_GRACE_SECONDS),
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
  async claim(kind: MailKind, subjectId: string, options: { sendersGoneBefore?: number } = {}): Promise<OutboundMailItem | undefined> {
    const now = nowSeconds();
    const leaseUntil = now + MAIL_SENDING_LEASE_SECONDS;
    // A lease taken before every sender then running was gone (epoch seconds) is a dead one's,
    // running or not: it ends before any lease taken since.
    const lapsedBelow = Math.max(now, options.sendersGoneBefore === undefined ? 0 : options.sendersGoneBefore + MAIL_SENDING_LEASE_SECONDS);
    return tryUpdate(
      updateOf(outboundMailEntity, outboundMailEntity.key(kind, subjectId), {
        // The sweeper's turn comes when the lease lapses: a claimant that died is found then.
        set: { state: 'sending', leaseUntil, ...unsentEntry(kind, subjectId, leaseUntil) },
        if: (c) => c.or(c.eq('state', 'pending'), c.and(c.eq('state', 'sending'), c.lt('leaseUntil', lapsedBelow))),
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

  /**
   * Gives the mail back when sending failed for a reason that may pass: the stream's retry sends it,
   * or else the sweeper once the grace has passed.
   */
  async release(kind: MailKind, subjectId: string): Promise<void> {
    await tryUpdate(
      updateOf(outboundMailEntity, outboundMailEntity.key(kind, subjectId), {
        set: { state: 'pending', ...unsentEntry(kind, subjectId, nowSeconds() + MAIL_SWEEP_GRACE_SECONDS) },
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

  /**
   * The unsent mails the sweeper may take by `until` (now: pending past their grace, or claimed
   * with a lapsed lease), oldest first within each shard: one Query per shard of the sparse index,
   * up to `perShard` each. The claim that follows decides; this only finds candidates.
   */
  async dueForSweep(perShard: number, until = new Date()): Promise<UnsentMail[]> {
    const shards = await Promise.all(
      Array.from({ length: MAIL_QUEUE_SHARDS }, (_, shard) =>
        queryAll({
          ...outboundMailEntity.indexes.unsent.range(shard),
          sk: { lt: until.toISOString() },
          limit: perShard,
        }),
      ),
    );
    return shards.flat().map(({ kind, subjectId, secretLink }) => ({ kind, subjectId, ...(secretLink ? { secretLink } : {}) }));
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

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [mailSuppressionEntity, outboundMailEntity], writes: [mailSuppressionEntity, outboundMailEntity] });
