import type { Context, SNSEvent } from 'aws-lambda';
import { mailRepo } from './data/mail';
import { logger, withRequestContext } from '../common/logger';

/** What SES publishes about one sent mail (event publishing's `eventType`, or a notification's `notificationType`). */
interface SesFeedback {
  eventType?: string;
  notificationType?: string;
  bounce?: { bounceType?: string; bounceSubType?: string; bouncedRecipients?: { emailAddress?: string }[] };
  complaint?: { complaintFeedbackType?: string; complainedRecipients?: { emailAddress?: string }[] };
}

/** The addresses one SES report says not to mail again, and why: a permanent bounce or a complaint. A transient bounce marks nobody. */
export function suppressionsOf(message: string): { email: string; reason: 'bounce' | 'complaint'; detail?: string }[] {
  let feedback: SesFeedback;
  try {
    feedback = JSON.parse(message) as SesFeedback;
  } catch {
    return [];
  }
  const type = feedback.eventType ?? feedback.notificationType;
  if (type === 'Bounce' && feedback.bounce?.bounceType === 'Permanent') {
    return (feedback.bounce.bouncedRecipients ?? []).flatMap((r) =>
      r.emailAddress ? [{ email: r.emailAddress, reason: 'bounce' as const, ...(feedback.bounce?.bounceSubType ? { detail: feedback.bounce.bounceSubType } : {}) }] : [],
    );
  }
  if (type === 'Complaint') {
    const detail = feedback.complaint?.complaintFeedbackType;
    return (feedback.complaint?.complainedRecipients ?? []).flatMap((r) =>
      r.emailAddress ? [{ email: r.emailAddress, reason: 'complaint' as const, ...(detail ? { detail } : {}) }] : [],
    );
  }
  return [];
}

/**
 * Subscribed to the configuration set's bounce and complaint topic (infra/mail.ts): each address
 * that bounced for good or complained is marked (a mail-suppression item), and functions/mail/send-mail.ts
 * mails it no more. Marking is a plain put, so a report delivered twice marks it once.
 */
export const handler = withRequestContext(async (event: SNSEvent, _context?: Context): Promise<void> => {
  const marks = event.Records.flatMap((record) => suppressionsOf(record.Sns.Message));
  await Promise.all(marks.map(({ email, reason, detail }) => mailRepo.suppress(email, reason, detail)));
  if (marks.length) logger.info('Addresses no longer mailed', { bounces: marks.filter((m) => m.reason === 'bounce').length, complaints: marks.filter((m) => m.reason === 'complaint').length });
}, 'record-mail-feedback');
