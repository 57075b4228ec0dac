import type { PaymentStatus, PayoutStatus } from '../domain/invoice';
import { defineEntity, on, onShards } from './define';
import { shardOf } from './shards';

/**
 * Invoices: one per job (the job carries its id, set once). Money in cents.
 */
export interface InvoiceItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk: string;
  gsi2sk: string;
  gsi3pk: string;
  gsi3sk: string;
  /** Set when paid (the payments export reads a range of payment days). */
  gsi4pk?: string;
  gsi4sk?: string;
  entity: 'invoice';
  id: string;
  jobId: string;
  customerId: string;
  customerEmail: string | null;
  workerId: string;
  workerName: string;
  customerName: string;
  service: string;
  location: string;
  description: string;
  laborHours: number;
  hourlyRate: number;
  materialsCost: number;
  /** The job's as-soon-as-possible fee, cents (absent on invoices stored before it: 0). */
  rushFee?: number;
  /** Card processing on this invoice's charge, cents (0 on a crew's line: the bill's one charge carries it). */
  transactionFee?: number;
  /** The job's estimate total when it was sent (a crew: this pro's part), cents; absent when none. */
  estimatedTotal?: number | null;
  /** A line of a crew's bill: the lead job's id, the request the bill is paid through. */
  crewRequestId?: string;
  totalAmount: number;
  platformFee: number;
  workerShare: number;
  feePercent: number;
  notes: string | null;
  paymentStatus: PaymentStatus;
  workVerified: boolean;
  workVerifiedAt: string | null;
  /** The open (or last) Checkout session and how many were made, for the idempotency key. */
  stripeSessionId: string | null;
  checkoutAttempts: number;
  stripePaymentIntentId: string | null;
  paidAt: string | null;
  /** When the payment was announced to the customer and the worker (once; see claimPaidNotice). */
  paidNoticeAt?: string;
  payoutStatus: PayoutStatus;
  /** The connected account the share went to (destination charge or later transfer). */
  payoutAccountId: string | null;
  transferId: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * The partitions every invoice, and every paid one, is spread over (shared/entities/shards.ts). An
 * invoice is written about six times (sent, checkout, paid, the notice, the payout) at about 2 KB:
 * at a thousand bookings a minute some 200 WCU a second on one partition, and the paid ones about
 * 100, both bursting with the evening's payments; over 4, about 50 and 25 each.
 */
export const INVOICE_LIST_SHARDS = 4;

/**
 * - gsi1 CUSTOMER#<customer> / INVOICE#<createdAt>: a customer's invoices, beside their requests;
 * - gsi2 WORKERINVOICES#<worker> / INVOICE#<createdAt>: a worker's (apart from WORKERJOBS#, whose
 *   sort keys are job groups);
 * - gsi3 INVOICES#<shard> / INVOICE#<createdAt>: every invoice (the owner's view);
 * - gsi4 PAYMENTS#<shard> / PAID#<paidAt> (sparse, set with the payment): the paid invoices by when, for the
 *   owner's payments export of a range.
 * Both of the last over INVOICE_LIST_SHARDS partitions.
 * Each newest last.
 */
export const invoiceEntity = defineEntity<InvoiceItem>()({
  name: 'invoice',
  key: (id: string) => ({ pk: `INVOICE#${id}`, sk: 'INVOICE' }),
  indexes: {
    customerInvoices: on('gsi1', (customerId: string, createdAt = '') => ({ gsi1pk: `CUSTOMER#${customerId}`, gsi1sk: `INVOICE#${createdAt}` })),
    workerInvoices: on('gsi2', (workerId: string, createdAt = '') => ({ gsi2pk: `WORKERINVOICES#${workerId}`, gsi2sk: `INVOICE#${createdAt}` })),
    all: onShards('gsi3', INVOICE_LIST_SHARDS, (shard: number, createdAt = '') => ({ gsi3pk: `INVOICES#${shard}`, gsi3sk: `INVOICE#${createdAt}` })),
    paid: onShards('gsi4', INVOICE_LIST_SHARDS, (shard: number, paidAt = '') => ({ gsi4pk: `PAYMENTS#${shard}`, gsi4sk: `PAID#${paidAt}` })),
  },
  membership: {
    customerInvoices: { uses: ['customerId', 'createdAt'], args: (i) => [i.customerId, i.createdAt] },
    workerInvoices: { uses: ['workerId', 'createdAt'], args: (i) => [i.workerId, i.createdAt] },
    all: { uses: ['pk', 'createdAt'], args: (i) => [shardOf(i.pk, INVOICE_LIST_SHARDS), i.createdAt] },
    paid: { uses: ['paidAt', 'pk'], when: (i) => typeof i.paidAt === 'string', args: (i) => [shardOf(i.pk, INVOICE_LIST_SHARDS), i.paidAt!] },
  },
});

/** A Stripe webhook event already handled: its put makes a second delivery a no-op; expires (TTL). */
export interface StripeEventItem {
  pk: string;
  sk: string;
  entity: 'stripe-event';
  eventId: string;
  type: string;
  handledAt: string;
  expiresAt: number;
}

export const stripeEventEntity = defineEntity<StripeEventItem>()({
  name: 'stripe-event',
  key: (eventId: string) => ({ pk: `STRIPE_EVENT#${eventId}`, sk: 'EVENT' }),
});
