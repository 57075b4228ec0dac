import { jobAmountCents, platformFeeCents } from './earnings';

/**
 * Invoice money: total = labour hours x hourly rate
 * + materials, in integer cents, computed on the server. The platform's fee is the one configured
 * rate of the whole total; the worker's share is the rest, so the two always add up to the total.
 */
export const MAX_LABOR_HOURS = 24 * 7;
export const MAX_MATERIALS_CENTS = 50_000_00;

export interface InvoiceAmounts {
  laborCents: number;
  materialsCents: number;
  totalCents: number;
  platformFeeCents: number;
  workerShareCents: number;
}

/** Hours to one decimal, as the invoice shows and stores them. */
export function roundHours(hours: number): number {
  return Math.round(hours * 10) / 10;
}

/** Dollars typed by a person (12.5, 12.50) to whole cents. */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

export function invoiceAmounts(input: { laborHours: number; hourlyRateCents: number; materialsCents: number; feePercent: number }): InvoiceAmounts {
  const laborCents = jobAmountCents(roundHours(input.laborHours), input.hourlyRateCents);
  const totalCents = laborCents + input.materialsCents;
  const fee = platformFeeCents(totalCents, input.feePercent);
  return {
    laborCents,
    materialsCents: input.materialsCents,
    totalCents,
    platformFeeCents: fee,
    workerShareCents: totalCents - fee,
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
