import { cardFeeCents } from './estimate';
import { jobAmountCents, platformFeeCents } from './earnings';

/**
 * Invoice money, in integer cents, computed on the server. The invoice charges what the estimate
 * said it would: labour (hours x hourly rate) + the rush fee the job was sent with + materials is
 * the subtotal; the platform's fee is the one configured rate of the subtotal and the worker's
 * share is the rest, so the two always add up to the subtotal. The customer also pays the card
 * processing fee on the charge (the transaction fee), which the platform passes to Stripe: the
 * total is subtotal + transaction fee. A crew's line has no card fee of its own (the bill's one
 * charge carries it), so its total is its subtotal.
 */
export const MAX_LABOR_HOURS = 24 * 7;
export const MAX_MATERIALS_CENTS = 50_000_00;

export interface InvoiceAmounts {
  laborCents: number;
  rushCents: number;
  materialsCents: number;
  /** Labour + rush + materials: what the fee split divides. */
  subtotalCents: number;
  /** Card processing on the charge (0 on a crew's line). */
  transactionFeeCents: number;
  /** What the customer pays: subtotal + transaction fee. */
  totalCents: number;
  platformFeeCents: number;
  workerShareCents: number;
}

/** Card processing: a percentage of the charge plus a fixed amount per charge. */
export interface CardFeeRates {
  percent: number;
  fixedCents: number;
}

/** Hours to one decimal, as the invoice shows and stores them. */
export function roundHours(hours: number): number {
  return Math.round(hours * 10) / 10;
}

/** Dollars typed by a person (12.5, 12.50) to whole cents. */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/**
 * `rushCents` absent: none. `cardFee` absent or null: no card fee on this invoice (a crew's line,
 * or a preview that leaves the charge's fee to the server).
 */
export function invoiceAmounts(input: {
  laborHours: number;
  hourlyRateCents: number;
  rushCents?: number;
  materialsCents: number;
  feePercent: number;
  cardFee?: CardFeeRates | null;
}): InvoiceAmounts {
  const laborCents = jobAmountCents(roundHours(input.laborHours), input.hourlyRateCents);
  const rushCents = Math.max(0, Math.round(input.rushCents ?? 0));
  const subtotalCents = laborCents + rushCents + input.materialsCents;
  const fee = platformFeeCents(subtotalCents, input.feePercent);
  const transactionFeeCents = input.cardFee ? cardFeeCents(subtotalCents, input.cardFee.percent, input.cardFee.fixedCents) : 0;
  return {
    laborCents,
    rushCents,
    materialsCents: input.materialsCents,
    subtotalCents,
    transactionFeeCents,
    totalCents: subtotalCents + transactionFeeCents,
    platformFeeCents: fee,
    workerShareCents: subtotalCents - fee,
  };
}

/** Payment status on the invoice. */
export const paymentStatuses = ['pending', 'processing', 'paid', 'failed'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/**
 * Where the worker's share stands: 'unpaid' before the customer pays; 'transferred' once it went to
 * the worker's connected account; 'held' when the customer paid before the worker finished payout
 * onboarding (released to them when they do).
 */
export const payoutStatuses = ['unpaid', 'transferred', 'held'] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];

/** The list's label: completed/paid shows Paid, pending Payment Pending, anything else Payment Failed. */
export function paymentListLabel(status: string): 'Paid' | 'Payment Pending' | 'Processing' | 'Payment Failed' {
  if (status === 'paid' || status === 'completed') return 'Paid';
  if (status === 'pending') return 'Payment Pending';
  // A checkout in progress is not a failure, so it gets a label of its own.
  if (status === 'processing') return 'Processing';
  return 'Payment Failed';
}

/** The pay button's label; `creating` while our checkout call is in flight. */
export function payButtonLabel(status: PaymentStatus, totalCents: number, creating: boolean): string {
  if (status === 'paid') return 'Paid';
  if (status === 'processing') return 'Processing...';
  if (creating) return 'Creating Payment...';
  return `Pay $${(totalCents / 100).toFixed(2)}`;
}

/** The invoice number shown: the last 8 characters of its id, upper case. */
export function invoiceNumber(id: string): string {
  return id.slice(-8).toUpperCase();
}
