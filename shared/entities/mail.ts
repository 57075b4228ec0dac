import { defineEntity, on } from './define';

/** The mails the product sends, one kind per event that causes one. */
export const mailKinds = [
  // Customers
  'request-received',
  'booking-received',
  'pro-assigned',
  'no-pro-found',
  'work-completed',
  'invoice-ready',
  'bill-ready',
  'receipt',
  // Applicants: pros and companies
  'worker-application-received',
  'application-approved',
  'application-rejected',
  'company-application-received',
  'company-application-decided',
  // The owner
  'owner-new-application',
  'owner-documents-waiting',
  'owner-daily-summary',
  // Pros
  'document-expiring',
  'strike-recorded',
  'payout-sent',
  // Sign-in links: a customer's requests on another device, a forgotten password, a pro's account
  'requests-link',
  'password-reset',
  'worker-account-link',
] as const;
export type MailKind = (typeof mailKinds)[number];

/**
 * One mail in the outbox: written with (or right after) the change it tells about, and sent by the
 * table stream's `send-mail` consumer. Keyed by the event (its kind and the id of what it is about),
 * and only ever put when its key is new, so one event makes one mail however often it is written.
 * What the message says is stored with it, so sending needs nothing else.
 */
export interface OutboundMailItem {
  pk: string;
  sk: string;
  entity: 'outbound-mail';
  kind: MailKind;
  /** The id of what the mail is about (an application's id): with `kind`, the event. */
  subjectId: string;
  to: string;
  subject: string;
  /** The message's paragraphs, plain text: the sender renders them as text and as escaped HTML. */
  paragraphs: string[];
  /**
   * The one link that matters, as a path on the site: the sender puts the site's own origin before
   * it, so no request can steer where a mail's link points.
   */
  action?: { label: string; path: string };
  /**
   * The link is a credential (a sign-in or password-reset link): the item lives only as long as the
   * link does, and its link is removed once the mail is sent or settled, so the table never keeps a
   * usable secret longer than the mail needs it.
   */
  secretLink?: boolean;
  /** pending → sending (a lease) → sent; or suppressed (the address bounced or complained) or refused (SES will never take it). */
  state: 'pending' | 'sending' | 'sent' | 'suppressed' | 'refused';
  /** Epoch seconds the sending claim holds until. */
  leaseUntil?: number;
  /**
   * The sweeper's index (gsi1, sparse), held only while the mail is unsent (pending or sending):
   * `MAILQ#<shard>` / the time the sweeper may take it (ISO). Removed when the mail is settled.
   */
  gsi1pk?: string;
  gsi1sk?: string;
  /** SES's id for the sent message. */
  messageId?: string;
  sentAt?: string;
  /** Why SES refused it, for the owner reading the table. */
  refusal?: string;
  createdAt: string;
  expiresAt: number;
}

/**
 * How many partitions the unsent mails are spread over: a burst of mail is not all written to one
 * index partition, and the sweeper reads them all with this many Queries.
 */
export const MAIL_QUEUE_SHARDS = 8;

/** The shard an outbox item's key falls in (a string hash of its pk, so the same item always lands in the same one). */
export function mailQueueShard(pk: string): number {
  let hash = 0;
  for (let i = 0; i < pk.length; i++) hash = (hash * 31 + pk.charCodeAt(i)) >>> 0;
  return hash % MAIL_QUEUE_SHARDS;
}

/** gsi1 MAILQ#<shard> / <ISO time> (sparse): the unsent mails, by when the sweeper may take each. */
export const outboundMailEntity = defineEntity<OutboundMailItem>()({
  name: 'outbound-mail',
  key: (kind: MailKind, subjectId: string) => ({ pk: `MAIL#${kind}#${subjectId}`, sk: 'MAIL' }),
  indexes: {
    unsent: on('gsi1', (shard: number, dueAt = '') => ({ gsi1pk: `MAILQ#${shard}`, gsi1sk: dueAt })),
  },
  membership: {
    // When the sweeper may take it is no attribute of the mail: a write that keeps it unsent gives the keys.
    unsent: { uses: ['state'], when: (m) => m.state === 'pending' || m.state === 'sending' },
  },
});

/** An address SES reported as bouncing (permanently) or complaining: it is not mailed again. */
export interface MailSuppressionItem {
  pk: string;
  sk: string;
  entity: 'mail-suppression';
  /** Lower case, as the key. */
  email: string;
  reason: 'bounce' | 'complaint';
  /** SES's own words (the bounce's subtype or the complaint's feedback type). */
  detail?: string;
  at: string;
}

export const mailSuppressionEntity = defineEntity<MailSuppressionItem>()({
  name: 'mail-suppression',
  key: (email: string) => ({ pk: `MAIL_SUPPRESSED#${email.trim().toLowerCase()}`, sk: 'SUPPRESSION' }),
});
