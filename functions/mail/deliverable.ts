import { ValidationError } from '../common/errors';
import { mailRepo } from './data/mail';

/** What a form's address field says when our mail to that address came back before. */
export const SUPPRESSED_ADDRESS =
  'Mail we sent to this address came back (it bounced or was reported as unwanted), so nothing we send would reach you. Please check it or use another address.';

/**
 * Refuses a form whose address our mail can no longer reach: SES reported it bouncing for good or
 * complaining (functions/mail/record-mail-feedback.ts). The schema already refused what could never
 * arrive; this is what only the mail's own history knows. `fields` names each address by its form
 * field, so the message lands beside the field it is about. Written before anything is stored.
 */
export async function refuseSuppressedAddresses(fields: Record<string, string | null | undefined>): Promise<void> {
  for (const [field, address] of Object.entries(fields)) {
    if (address && (await mailRepo.isSuppressed(address))) {
      throw new ValidationError(SUPPRESSED_ADDRESS, { [field]: SUPPRESSED_ADDRESS });
    }
  }
}
