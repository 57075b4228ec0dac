import type { PublicConfig } from '../../../../shared/schemas/config';
import type { InvoiceView } from '../../../../shared/schemas/invoice';
import { ApiError } from '../../lib/api';

/** Spec section 9: both payment screens move on after 8 s. */
export const PAYMENT_REDIRECT_MS = 8000;
/** How often the success screen asks whether the card provider's confirmation has reached us. */
export const CONFIRMATION_POLL_MS = 2000;

// Job ids are URL-safe ids; the card provider's session ids are letters, digits and underscores.
const JOB_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SESSION_ID = /^[A-Za-z0-9_]{1,255}$/;

export interface PaymentParams {
  /** The card provider's checkout session (`session_id`), shown as "Session ID". */
  sessionId: string | null;
  /** The job paid for (`job`). */
  jobId: string | null;
}

/**
 * The query the card provider sends the customer back with. Anything that is not an id of the
 * expected shape counts as absent: the screen never echoes arbitrary text from a link, nor asks
 * the server about it.
 */
export function paymentParams(search: URLSearchParams): PaymentParams {
  return { sessionId: idParam(search.get('session_id'), SESSION_ID), jobId: idParam(search.get('job'), JOB_ID) };
}

function idParam(value: string | null, shape: RegExp): string | null {
  const trimmed = value?.trim() ?? '';
  return shape.test(trimmed) ? trimmed : null;
}

/** The platform's cut, from GET /api/config (never a number of our own: the rate is configured). */
export function feeLine(config: Pick<PublicConfig, 'platformFeePercent' | 'workerSharePercent'> | undefined): string | null {
  if (!config) return null;
  return `Your professional receives ${config.workerSharePercent}% of the payment, with a ${config.platformFeePercent}% service fee.`;
}

export type Confirmation = 'confirmed' | 'confirming' | 'failed' | 'unknown';

/**
 * Whether our side has the card provider's word that the job is paid. Unknown (the line is left
 * out) when the invoice is not this browser's to read (401, 403, 404): another browser paid, say.
 */
export function confirmationOf(invoice: Pick<InvoiceView, 'paymentStatus'> | undefined, error: unknown): Confirmation {
  if (invoice?.paymentStatus === 'paid') return 'confirmed';
  if (invoice?.paymentStatus === 'failed') return 'failed';
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return 'unknown';
  return 'confirming';
}

/** Ask again every 2 s until there is an answer that will not change. */
export function confirmationPollInterval(invoice: Pick<InvoiceView, 'paymentStatus'> | undefined, error: unknown): number | false {
  return confirmationOf(invoice, error) === 'confirming' ? CONFIRMATION_POLL_MS : false;
}

export function confirmationText(confirmation: Confirmation): string | null {
  switch (confirmation) {
    case 'confirmed':
      return 'Payment confirmed';
    case 'confirming':
      return 'Confirming your payment…';
    case 'failed':
      return 'The card payment was not completed. Please contact support before trying again.';
    default:
      return null;
  }
}
