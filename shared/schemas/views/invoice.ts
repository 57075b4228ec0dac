import * as z from 'zod/mini';
import { jobStates } from '../../domain/booking-status';
import { paymentStatuses, payoutStatuses } from '../../domain/invoice';

/**
 * The answers about work verification, invoices, payments and payouts. Money is integer cents.
 * Strict objects: a field no view names (a storage key, a hash) fails the tests that check answers.
 */

/** An invoice as its customer, its worker or the owner sees it (GET /api/invoices, /api/invoices/{id}). */
export const invoiceView = z.strictObject({
  id: z.string(),
  /** Last 8 characters, upper case. */
  invoiceNumber: z.string(),
  /** The job (a request or hire is its job). */
  serviceRequestId: z.string(),
  workerId: z.string(),
  workerName: z.string(),
  customerName: z.string(),
  service: z.string(),
  location: z.string(),
  description: z.string(),
  /** One decimal. */
  laborHours: z.number(),
  /** Cents. */
  hourlyRate: z.number(),
  materialsCost: z.number(),
  /** The as-soon-as-possible fee the job was sent with (the pro earns it, less the platform fee); 0 for a chosen time. */
  rushFee: z.number(),
  /** Card processing on the charge, paid by the customer; 0 on a crew's line (the bill carries the one charge's fee). */
  transactionFee: z.number(),
  /** What the customer pays for this invoice: labour + rush + materials + transaction fee. */
  totalAmount: z.number(),
  platformFee: z.number(),
  workerShare: z.number(),
  feePercent: z.number(),
  /** The estimate's total when the job was sent (this pro's part of it on a crew), beside the actual; null when none was made. */
  estimatedTotal: z.nullable(z.number()),
  /** A line of a crew's one bill: the request (lead job) the bill is paid through; null for a job of one pro. */
  crewRequestId: z.nullable(z.string()),
  notes: z.nullable(z.string()),
  paymentStatus: z.enum(paymentStatuses),
  /** The customer confirmed the invoice's work and charges (Verify Work); payment needs it. */
  workVerified: z.boolean(),
  workVerifiedAt: z.nullable(z.string()),
  paidAt: z.nullable(z.string()),
  /** The worker's and owner's view only; null for the customer. */
  payoutStatus: z.nullable(z.enum(payoutStatuses)),
  /** Only the worker and owner see it; the server never takes it from the browser. */
  workerStripeAccountId: z.nullable(z.string()),
  createdAt: z.string(),
});
export type InvoiceView = z.infer<typeof invoiceView>;

/** What a customer's request card needs to know of its invoice. */
export const invoiceSummary = z.strictObject({
  id: z.string(),
  invoiceNumber: z.string(),
  /** One decimal. */
  laborHours: z.number(),
  /** Cents, like every amount here. */
  hourlyRate: z.number(),
  materialsCost: z.number(),
  rushFee: z.number(),
  transactionFee: z.number(),
  totalAmount: z.number(),
  platformFee: z.number(),
  workerShare: z.number(),
  feePercent: z.number(),
  estimatedTotal: z.nullable(z.number()),
  paymentStatus: z.enum(paymentStatuses),
  workVerified: z.boolean(),
  paidAt: z.nullable(z.string()),
});
export type InvoiceSummary = z.infer<typeof invoiceSummary>;

/**
 * A crew's one bill (GET /api/requests/{id}/bill): a line per pro who invoiced, verified once and
 * paid by one charge; each pro's share is transferred to them from it.
 */
export const crewBillView = z.strictObject({
  requestId: z.string(),
  number: z.string(),
  service: z.string(),
  workerCount: z.number(),
  /** Customer views of the pros' invoices, in crew order. */
  lines: z.array(invoiceView),
  /** Pros who worked and have not invoiced yet: the bill can be verified and paid once none is left. */
  awaiting: z.array(z.strictObject({ jobId: z.string(), index: z.number(), workerName: z.nullable(z.string()) })),
  /** Sum of the lines' labour, rush and materials, cents. */
  subtotal: z.number(),
  /** Card processing on the one charge, cents. */
  transactionFee: z.number(),
  /** What the one charge takes: subtotal + transaction fee. */
  totalAmount: z.number(),
  platformFee: z.number(),
  feePercent: z.number(),
  /** The request's estimate total when it was sent; null when none was made. */
  estimatedTotal: z.nullable(z.number()),
  /** awaiting: pros still to invoice; to_verify: the customer checks the lines once; to_pay; then processing/paid/failed as a payment goes. */
  status: z.enum(['awaiting', 'to_verify', 'to_pay', 'processing', 'paid', 'failed']),
  verifiedAt: z.nullable(z.string()),
  paidAt: z.nullable(z.string()),
});
export type CrewBillView = z.infer<typeof crewBillView>;

/** The verification step of a completed request, as its customer sees it (polled now, live later). */
export const workVerificationView = z.strictObject({
  /** True while the customer is asked to approve or reject the finished work. */
  pending: z.boolean(),
  /** Billable hours the worker recorded. */
  workHours: z.nullable(z.number()),
  status: z.nullable(z.enum(['approved', 'rejected'])),
  notes: z.nullable(z.string()),
  at: z.nullable(z.string()),
  message: z.string(),
});
export type WorkVerificationView = z.infer<typeof workVerificationView>;

/** POST /api/client-verification's answer. */
export const clientVerificationResult = z.strictObject({
  ok: z.literal(true),
  jobId: z.string(),
  state: z.enum(jobStates),
  verificationStatus: z.enum(['approved', 'rejected']),
});
export type ClientVerificationResult = z.infer<typeof clientVerificationResult>;

/** POST /api/create-checkout-session's answer. */
export const checkoutSessionResult = z.strictObject({
  success: z.literal(true),
  url: z.string(),
  sessionId: z.string(),
  message: z.string(),
});
export type CheckoutSessionResult = z.infer<typeof checkoutSessionResult>;

/** GET /api/workers/payouts: the worker's Stripe Connect standing and what awaits them. */
export const payoutStatusView = z.strictObject({
  /** not_started: no connected account; pending: onboarding not finished; enabled: payouts flow. */
  status: z.enum(['not_started', 'pending', 'enabled']),
  accountId: z.nullable(z.string()),
  /** Paid by customers and waiting for onboarding, cents. */
  heldCents: z.number(),
  heldCount: z.number(),
  /** Sent to the connected account, cents. */
  transferredCents: z.number(),
  feePercent: z.number(),
});
export type PayoutStatusView = z.infer<typeof payoutStatusView>;

/** POST /api/workers/payouts/onboard: the Stripe-hosted onboarding page to go to. */
export const payoutOnboardingLink = z.strictObject({ url: z.string() });
export type PayoutOnboardingLink = z.infer<typeof payoutOnboardingLink>;

/** What a Stripe webhook answers Stripe: received (and whether it had been before). */
export const webhookReceipt = z.strictObject({ received: z.literal(true), duplicate: z.optional(z.literal(true)) });
