import { payButtonLabel, paymentListLabel, type PaymentStatus } from '../../../../shared/domain/invoice';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import type { CheckoutSessionResult, InvoiceView } from '../../../../shared/schemas/invoice';
import { ApiError } from '../../lib/api';
import type { BadgeTone } from '../../components/ui/badge';
import { serverMessage } from '../reviews/review';

/** Invoices are polled every 5 s, so a payment shows soon after the card provider confirms it. */
export const INVOICE_POLL_MS = 5000;

/**
 * Only the customer's view of an invoice has no payout status (the worker's and the owner's do), so
 * it tells, without another call, whether the one looking may verify and pay.
 */
export function isCustomerView(invoice: Pick<InvoiceView, 'payoutStatus'>): boolean {
  return invoice.payoutStatus === null;
}

/**
 * Verify Work is offered only while not verified, and only to its customer. An
 * invoice made after the customer approved the work arrives verified: approving was the verification,
 * so only older invoices ask for it here.
 */
export function canVerifyInvoice(invoice: Pick<InvoiceView, 'workVerified' | 'payoutStatus'>, viewer: InvoiceViewer = 'customer'): boolean {
  return !invoice.workVerified && isCustomerView(invoice) && viewer === 'customer';
}

export function verificationStateText(workVerified: boolean): 'Work Verified' | 'Pending Verification' {
  return workVerified ? 'Work Verified' : 'Pending Verification';
}

/**
 * Who is looking: the customer in the browser they booked with, or someone holding the tracking link,
 * who can follow the job but not pay for it.
 */
export type InvoiceViewer = 'customer' | 'link';

export const VERIFY_BEFORE_PAYING = 'Verify the work first';
export const PAY_FROM_BOOKING_DEVICE = 'Pay from the device you booked with';

/**
 * The pay button: enabled only when the invoice can be paid now; otherwise its
 * label is the reason (paid, processing, our checkout call running, the work not verified yet, or
 * not the customer's browser).
 */
export function payButtonOf(
  invoice: Pick<InvoiceView, 'paymentStatus' | 'totalAmount' | 'workVerified'>,
  creating: boolean,
  viewer: InvoiceViewer = 'customer',
): { label: string; disabled: boolean } {
  const { paymentStatus } = invoice;
  if (paymentStatus === 'paid' || paymentStatus === 'processing' || creating) {
    return { label: payButtonLabel(paymentStatus, invoice.totalAmount, creating), disabled: true };
  }
  if (viewer !== 'customer') return { label: PAY_FROM_BOOKING_DEVICE, disabled: true };
  if (!invoice.workVerified) return { label: VERIFY_BEFORE_PAYING, disabled: true };
  return { label: payButtonLabel(paymentStatus, invoice.totalAmount, false), disabled: false };
}

/**
 * The fees an invoice adds to its labour and materials, each only when charged: the
 * as-soon-as-possible fee the job was sent with (the pro earns it) and the card processing on the
 * charge (a crew's line carries none: the bill adds the one charge's).
 */
export function invoiceFeeLines(invoice: Pick<InvoiceView, 'rushFee' | 'transactionFee'>): { label: string; cents: number }[] {
  const lines: { label: string; cents: number }[] = [];
  if (invoice.rushFee > 0) lines.push({ label: 'As-soon-as-possible fee', cents: invoice.rushFee });
  if (invoice.transactionFee > 0) lines.push({ label: 'Card processing', cents: invoice.transactionFee });
  return lines;
}

/** The estimate shown beside the amount billed: the invoice's own, else the one the screen knows from the job; null when none was made. */
export function estimateBesideInvoice(invoice: Pick<InvoiceView, 'estimatedTotal'>, fromJob: number | null): number | null {
  return invoice.estimatedTotal ?? fromJob;
}

/** The invoice detail's payment status (pending, processing, paid), capitalised. */
export function paymentDetailLabel(status: PaymentStatus): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/** The colour of a list label: paid green, pending amber, processing blue, failed red. */
export function paymentTone(status: string): BadgeTone {
  switch (paymentListLabel(status)) {
    case 'Paid':
      return 'green';
    case 'Payment Pending':
      return 'amber';
    case 'Processing':
      return 'blue';
    default:
      return 'red';
  }
}

/** Thrown when the checkout call answers without a page to go to. */
export const NO_CHECKOUT_URL = 'Failed to create payment session';

/** The card provider's checkout page from POST /api/create-checkout-session; throws NO_CHECKOUT_URL without one. */
export function checkoutUrlOf(result: Pick<CheckoutSessionResult, 'url'> | null | undefined): string {
  const url = result?.url;
  if (typeof url !== 'string' || !url.trim()) throw new Error(NO_CHECKOUT_URL);
  return url;
}

/**
 * The "Payment Error" toast's line: the server's reason for a refusal (not verified, already paid);
 * "Could not start payment process" for an answer without one; NO_CHECKOUT_URL when no checkout
 * page came back; "Failed to initiate payment" when the call never got through.
 */
export function paymentFailureText(error: unknown): string {
  if (error instanceof ApiError) return serverMessage(error) ?? 'Could not start payment process';
  if (error instanceof Error && error.message === NO_CHECKOUT_URL) return NO_CHECKOUT_URL;
  return 'Failed to initiate payment. Please try again.';
}

/** A failed verification shows the server's reason when it gave one, else the screen's fallback. */
export const VERIFY_FAILED = 'Failed to verify work. Please try again.';
export const SUBMIT_VERIFICATION_FAILED = 'Failed to submit verification. Please try again.';

export function verificationFailureText(error: unknown, fallback: string = VERIFY_FAILED): string {
  return serverMessage(error) ?? fallback;
}

/** A 404 (not theirs, gone) or 409 (already verified or paid) means what the screen shows is out of date. */
export function isStale(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 409);
}

/** What an invoice the server does not know (404) says. */
export const INVOICE_NOT_FOUND = 'Invoice not found';

/** What an invoice that did not load says: "Invoice not found" for a 404, else that it could not be loaded and why. */
export function invoiceLoadProblem(error: unknown): { message: string; detail: string | null; retry: boolean } {
  if (error instanceof ApiError && error.status === 404) return { message: INVOICE_NOT_FOUND, detail: null, retry: false };
  return { message: 'Could not load the invoice', detail: loadDetail(error), retry: true };
}

/** The line under a failed load: the server's message, else its status, else that it could not be reached. */
export function loadDetail(error: unknown): string {
  if (error instanceof ApiError) return serverMessage(error) ?? `The server answered ${error.status}.`;
  return 'The server could not be reached. Check your connection.';
}

type PromptFields = 'status' | 'verification' | 'invoice';

/** What a customer's request card says about verifying and paying, on the home page and the client dashboard. */
export interface RequestInvoicePrompt {
  /** The finished work awaits the customer's approval; hours as the worker recorded them. */
  verify: { workHours: number | null } | null;
  /** Approved, and the worker has not invoiced yet. */
  awaitingInvoice: boolean;
  /** The customer rejected the work; the worker is back on it with these notes. */
  rejected: { notes: string | null } | null;
  invoice: { id: string; number: string; total: number; label: ReturnType<typeof paymentListLabel>; tone: BadgeTone } | null;
}

export function requestInvoicePromptOf(request: Pick<ServiceRequestView, PromptFields>): RequestInvoicePrompt {
  const { verification, invoice } = request;
  const completed = request.status === 'Completed';
  return {
    verify: completed && verification.pending && !invoice ? { workHours: verification.workHours } : null,
    awaitingInvoice: completed && !verification.pending && verification.status === 'approved' && !invoice,
    rejected: !verification.pending && verification.status === 'rejected' && !invoice ? { notes: verification.notes } : null,
    invoice: invoice
      ? {
          id: invoice.id,
          number: invoice.invoiceNumber,
          total: invoice.totalAmount,
          label: paymentListLabel(invoice.paymentStatus),
          tone: paymentTone(invoice.paymentStatus),
        }
      : null,
  };
}

/** The completed card's headline: "invoice available" only once there is one. */
export function completedHeadline(request: Pick<ServiceRequestView, 'invoice'>): string {
  return request.invoice ? 'Service completed - invoice available' : 'Service completed';
}
