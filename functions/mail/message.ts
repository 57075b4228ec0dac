import type { MailKind, OutboundMailItem } from '../../shared/entities';

/**
 * One mail the product sends, before it is rendered: whom to, the subject, its paragraphs and the
 * one link that matters. `kind` and `subjectId` name the event it tells about: one event, one mail.
 */
export interface MailMessage {
  kind: MailKind;
  subjectId: string;
  to: string;
  subject: string;
  paragraphs: string[];
  action?: OutboundMailItem['action'];
  /**
   * Seconds the link works, when the link is a credential (a sign-in or reset link): the outbox
   * item expires with it and loses the link once sent (OutboundMailItem.secretLink).
   */
  secretLinkSeconds?: number;
}

/** A message as it goes to SES: plain text and simple HTML saying the same. */
export interface RenderedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: MailKind;
}
