import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { SES_SEND_LIMIT_MS, ses } from '../common/clients';
import { env } from '../common/env';
import type { RenderedMail } from './message';

/** What SES answers for a message it will never take, however often it is sent again. */
const REFUSALS = new Set(['BadRequestException', 'MessageRejected', 'MailFromDomainNotVerifiedException', 'NotFoundException']);

/** SES refused this message itself (a bad address, an unverified sender): sending it again changes nothing. */
export function isRefusal(error: unknown): boolean {
  return REFUSALS.has((error as Error | undefined)?.name ?? '');
}

/** Whether this function may send at all: it is told who mail is from and the site its links go to. */
export function mailConfigured(): boolean {
  return Boolean(env.MAIL_FROM && env.SITE_URL);
}

/**
 * Sends one rendered mail through SES, through the configuration set (so its bounces and complaints
 * come back), tagged with its kind. Answers SES's message id.
 */
export async function sendMail(mail: RenderedMail): Promise<string> {
  if (!env.MAIL_FROM) throw new Error('MAIL_FROM is not set: this function cannot send mail');
  const out = await ses().send(
    new SendEmailCommand({
      FromEmailAddress: env.MAIL_FROM,
      Destination: { ToAddresses: [mail.to] },
      Content: {
        Simple: {
          Subject: { Data: mail.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
        },
      },
      ...(env.SES_CONFIGURATION_SET ? { ConfigurationSetName: env.SES_CONFIGURATION_SET } : {}),
      EmailTags: [{ Name: 'kind', Value: mail.kind }],
    }),
    // No try starts after the limit, whatever pause the SDK's retry took: the claim's arithmetic holds.
    { abortSignal: AbortSignal.timeout(SES_SEND_LIMIT_MS) },
  );
  if (!out.MessageId) throw new Error('SES answered without a message id');
  return out.MessageId;
}
