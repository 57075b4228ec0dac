import * as z from 'zod/mini';
import type { JobState } from '../domain/booking-status';
import { MAX_LABOR_HOURS, MAX_MATERIALS_CENTS, type PaymentStatus, type PayoutStatus } from '../domain/invoice';
import { strictBody } from '../validation';
import { text } from './fields';

/**
 * Work verification, invoices, payments and payouts (customer spec sections 2-8, issue 5).
 * Money in views is integer cents; the forms take dollars and hours as people type them.
 */

/** More than any invoice can total (the labour hours at the highest rate plus the materials), in dollars. */
const MAX_CHECKOUT_DOLLARS = 1_000_000;

export const NOTES_REQUIRED = 'Notes Required - Please provide notes when rejecting verification.';

const id = (what: string) => text(`Choose the ${what}`, z.minLength(1, `Choose the ${what}`), z.maxLength(64, `${what} id is too long`));
const optionalId = (field: string) => z.optional(z.nullable(z.string({ error: `${field} must be text` }).check(z.maxLength(64, `${field} is too long`))));

/**
 * POST /api/client-verification: the spec's verification record. The customer comes from the
 * cookie (clientId is accepted and ignored), the worker from the job. Rejecting needs notes.
 */
export const clientVerificationSchema = z
  .strictObject(
    {
      serviceRequestId: id('job'),
      workerId: optionalId('workerId'),
      clientId: optionalId('clientId'),
      verificationType: z.enum(['worker_verification', 'work_verification', 'invoice_verification'], {
        error: 'verificationType must be worker_verification, work_verification or invoice_verification',
      }),
      verificationStatus: z.enum(['approved', 'rejected'], { error: 'verificationStatus must be approved or rejected' }),
      verificationNotes: z.optional(z.nullable(z.string({ error: 'Notes must be text' }).check(z.trim(), z.maxLength(1000, 'Notes can be at most 1000 characters')))),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : issue.code === 'invalid_type' ? 'Send the fields as one JSON object.' : undefined,
    },
  )
  .check(
    z.refine((v) => v.verificationStatus !== 'rejected' || Boolean(v.verificationNotes?.trim()), {
      message: NOTES_REQUIRED,
      path: ['verificationNotes'],
    }),
  );
export type ClientVerificationInput = z.infer<typeof clientVerificationSchema>;

/** POST /api/jobs/{id}/invoice: the worker's invoice of a job the customer approved. */
export const createInvoiceSchema = strictBody({
  laborHours: z.number({ error: 'Labour hours must be a number' }).check(
    z.gte(0.1, 'Labour hours must be at least 0.1'),
    z.lte(MAX_LABOR_HOURS, `Labour hours can be at most ${MAX_LABOR_HOURS}`),
    z.refine((h) => Math.abs(h * 10 - Math.round(h * 10)) < 1e-9, 'Labour hours take one decimal at most'),
  ),
  /** Dollars with at most 2 decimals. */
  materialsCost: z.optional(
    z.number({ error: 'Materials must be an amount in dollars' }).check(
      z.gte(0, 'Materials cannot be negative'),
      z.lte(MAX_MATERIALS_CENTS / 100, `Materials can be at most $${(MAX_MATERIALS_CENTS / 100).toLocaleString('en-US')}`),
      z.refine((d) => Math.abs(d * 100 - Math.round(d * 100)) < 1e-6, 'Materials take cents at most (2 decimals)'),
    ),
  ),
  notes: z.optional(z.string({ error: 'Notes must be text' }).check(z.trim(), z.maxLength(1000, 'Notes can be at most 1000 characters'))),
  workerId: optionalId('workerId'),
});
export type CreateInvoiceInput = z.infer<typeof createInvoiceSchema>;

/**
 * POST /api/create-checkout-session, either body of the spec: the invoice view's
 * { invoiceId, workerStripeAccountId } or the client dashboard's { jobId, workerId, clientEmail,
 * amount, description }. The amount charged is always the invoice's; the account is always the
 * worker's on file, so neither can be steered by the browser.
 */
export const checkoutSessionSchema = strictBody({
  invoiceId: z.optional(id('invoice')),
  workerStripeAccountId: optionalId('workerStripeAccountId'),
  jobId: z.optional(id('job')),
  workerId: optionalId('workerId'),
  clientEmail: z.optional(z.nullable(z.string({ error: 'clientEmail must be text' }).check(z.maxLength(254, 'clientEmail is too long')))),
  /** Dollars, as the dashboard shows them; refused when it is not the invoice's total. */
  amount: z.optional(
    z.number({ error: 'amount must be a number of dollars' }).check(
      z.gte(0, 'amount cannot be negative'),
      z.lte(MAX_CHECKOUT_DOLLARS, 'amount is larger than any invoice'),
    ),
  ),
  description: z.optional(z.string({ error: 'description must be text' }).check(z.maxLength(500, 'description is too long'))),
}).check(z.refine((v) => Boolean(v.invoiceId || v.jobId), { message: 'Send the invoiceId (or the jobId) to pay', path: ['invoiceId'] }));
export type CheckoutSessionInput = z.infer<typeof checkoutSessionSchema>;

/** An invoice as its customer, its worker or the owner sees it (GET /api/invoices, /api/invoices/{id}). */
export interface InvoiceView {
  id: string;
  /** Last 8 characters, upper case. */
  invoiceNumber: string;
  /** The job (a request or hire is its job). */
  serviceRequestId: string;
  workerId: string;
  workerName: string;
  customerName: string;
  service: string;
  location: string;
  description: string;
  /** One decimal. */
  laborHours: number;
  /** Cents. */
  hourlyRate: number;
  materialsCost: number;
  totalAmount: number;
  platformFee: number;
  workerShare: number;
  feePercent: number;
  notes: string | null;
  paymentStatus: PaymentStatus;
  /** The customer confirmed the invoice's work and charges (Verify Work); payment needs it. */
  workVerified: boolean;
  workVerifiedAt: string | null;
  paidAt: string | null;
  /** The worker's and owner's view only; null for the customer. */
  payoutStatus: PayoutStatus | null;
  /** Only the worker and owner see it; the server never takes it from the browser. */
  workerStripeAccountId: string | null;
  createdAt: string;
}

/** What a customer's request card needs to know of its invoice. */
export interface InvoiceSummary {
  id: string;
  invoiceNumber: string;
  /** One decimal. */
  laborHours: number;
  /** Cents, like every amount here. */
  hourlyRate: number;
  materialsCost: number;
  totalAmount: number;
  platformFee: number;
  workerShare: number;
  feePercent: number;
  paymentStatus: PaymentStatus;
  workVerified: boolean;
  paidAt: string | null;
}

/** The verification step of a completed request, as its customer sees it (polled now, live later). */
export interface WorkVerificationView {
  /** True while the customer is asked to approve or reject the finished work. */
  pending: boolean;
  /** Billable hours the worker recorded. */
  workHours: number | null;
  status: 'approved' | 'rejected' | null;
  notes: string | null;
  at: string | null;
  message: string;
}

/** POST /api/client-verification's answer. */
export interface ClientVerificationResult {
  ok: true;
  jobId: string;
  state: JobState;
  verificationStatus: 'approved' | 'rejected';
}

/** POST /api/create-checkout-session's answer (spec: success, url, message). */
export interface CheckoutSessionResult {
  success: true;
  url: string;
  sessionId: string;
  message: string;
}

/** GET /api/workers/payouts: the worker's Stripe Connect standing and what awaits them. */
export interface PayoutStatusView {
  /** not_started: no connected account; pending: onboarding not finished; enabled: payouts flow. */
  status: 'not_started' | 'pending' | 'enabled';
  accountId: string | null;
  /** Paid by customers and waiting for onboarding, cents. */
  heldCents: number;
  heldCount: number;
  /** Sent to the connected account, cents. */
  transferredCents: number;
  feePercent: number;
}

/** POST /api/workers/payouts/onboard: the Stripe-hosted onboarding page to go to. */
export interface PayoutOnboardingLink {
  url: string;
}
