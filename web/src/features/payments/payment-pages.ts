import type { PaymentConfirmationView } from '../../../../shared/schemas/job';
import { ApiError } from '../../lib/api';
import type { DisplaySettings } from '../../lib/config';
import { formatMoney } from '../../lib/money';
import { paths } from '../../lib/paths';
import { formatDateTime } from '../../lib/date-time';

/** The cancelled screen moves on after 8 s. */
export const PAYMENT_REDIRECT_MS = 8000;
/**
 * The card provider's webhook can reach the server after the customer is back, so the success
 * screen asks again every 2 s, 10 times in all (about 20 s), before it says it could not confirm.
 */
export const CONFIRMATION_POLL_MS = 2000;
export const CONFIRMATION_ATTEMPTS = 10;

// Job ids are URL-safe ids; the card provider's session ids are letters, digits and underscores.
const JOB_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SESSION_ID = /^[A-Za-z0-9_]{1,255}$/;

export interface PaymentParams {
  /** The card provider's checkout session (`session_id`). */
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

/** What the success screen can say: still asking, paid (the server says so), or not confirmed. */
export type PaymentOutcome = 'confirming' | 'paid' | 'unconfirmed';

export interface ConfirmationState {
  jobId: string | null;
  /** The server's latest answer. */
  data: Pick<PaymentConfirmationView, 'paid'> | undefined;
  /** The latest failure, if the latest attempt failed. */
  error: unknown;
  /** Answers and failures so far. */
  attempts: number;
}

/**
 * An answer the next attempt cannot change: the server refused the job id or the session (a 4xx).
 * A 5xx or a network failure may pass, so those are asked again.
 */
function settledFailure(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

/**
 * "Payment Successful!" only on the server's word that the invoice is paid; "could not confirm"
 * without a job, on a refusal, or once the attempts run out; otherwise still confirming.
 */
export function paymentOutcome({ jobId, data, error, attempts }: ConfirmationState): PaymentOutcome {
  if (!jobId) return 'unconfirmed';
  if (data?.paid === true) return 'paid';
  if (settledFailure(error)) return 'unconfirmed';
  return attempts < CONFIRMATION_ATTEMPTS ? 'confirming' : 'unconfirmed';
}

/** When to ask again: every 2 s while still confirming, never after. */
export function confirmationPollInterval(state: ConfirmationState): number | false {
  return paymentOutcome(state) === 'confirming' ? CONFIRMATION_POLL_MS : false;
}

/** Where "could not confirm" sends the customer: the job's invoice on /track, else the home page. */
export function unconfirmedLink(jobId: string | null): { to: string; label: string } {
  return jobId ? { to: paths.track(jobId), label: 'Back to your invoice' } : { to: paths.home, label: 'Back to Home' };
}

export interface ReceiptLine {
  label: string;
  value: string;
}

/**
 * The paid amounts as the receipt lists them, in the configured currency: what was paid, the
 * service fee with its rate, and the pro's share. Lines the server left out (null) are left out.
 */
export function receiptLines(
  confirmation: Pick<PaymentConfirmationView, 'totalAmount' | 'platformFee' | 'workerShare' | 'feePercent' | 'workerName'>,
  settings: Pick<DisplaySettings, 'currency' | 'locale'>,
): ReceiptLine[] {
  const lines: ReceiptLine[] = [];
  if (confirmation.totalAmount !== null) lines.push({ label: 'Total paid', value: formatMoney(confirmation.totalAmount, settings) });
  if (confirmation.platformFee !== null) {
    const rate = confirmation.feePercent !== null ? ` (${confirmation.feePercent}%)` : '';
    lines.push({ label: `Service fee${rate}`, value: formatMoney(confirmation.platformFee, settings) });
  }
  if (confirmation.workerShare !== null) {
    const name = confirmation.workerName?.trim();
    lines.push({ label: name ? `${name} receives` : 'Your pro receives', value: formatMoney(confirmation.workerShare, settings) });
  }
  return lines;
}

/** When it was paid, in the configured locale ("Mar 4, 2025, 3:07 PM"), or null when unknown. */
export function paidAtText(paidAt: string | null, locale: string): string | null {
  return formatDateTime(paidAt, 'date-time', locale);
}

/** Without an address we mail nothing: the page is the receipt, and Stripe may send its own. */
export const RECEIPT_NOTE = 'This page is your receipt; Stripe may also email one if you gave it your address.';

/** With an address on the request, our receipt is mailed there once the payment is recorded. */
export const RECEIPT_EMAILED_NOTE = 'We emailed your receipt to the address on your request; this page is your receipt too.';

/** The receipt note the server's answer allows: "emailed" only when it says a receipt was mailed. */
export function receiptNote(confirmation: { receiptEmailed: boolean }): string {
  return confirmation.receiptEmailed ? RECEIPT_EMAILED_NOTE : RECEIPT_NOTE;
}

export interface CancelledDestination {
  /** Where the countdown goes. */
  to: string;
  /** "Taking you to ..." */
  where: string;
  /** The main button. */
  label: string;
}

/**
 * Where the cancelled screen sends someone: a signed-in worker (who opened checkout for the
 * customer) back to their dashboard; a customer back to the request and its unpaid invoice; with
 * neither, the home page.
 */
export function cancelledDestination(jobId: string | null, workerSignedIn: boolean): CancelledDestination {
  if (workerSignedIn) return { to: paths.workerDashboardAlias, where: 'the worker dashboard', label: 'Worker Dashboard' };
  if (jobId) return { to: paths.track(jobId), where: 'your invoice', label: 'Back to your invoice' };
  return { to: paths.home, where: 'the home page', label: 'Back to Home' };
}
