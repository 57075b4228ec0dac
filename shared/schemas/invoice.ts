import * as z from 'zod/mini';
import { MAX_LABOR_HOURS, MAX_MATERIALS_CENTS } from '../domain/invoice';
import { strictBody } from '../validation';
import { text } from './fields';

/** The views the invoice and payment calls answer: zod schemas (the tests check answers with them), types here. */
export type {
  CheckoutSessionResult,
  ClientVerificationResult,
  CrewBillView,
  InvoiceSummary,
  InvoiceView,
  PayoutOnboardingLink,
  PayoutStatusView,
  WorkVerificationView,
} from './views/invoice';

/**
 * Work verification, invoices, payments and payouts.
 * Money in views is integer cents; the forms take dollars and hours as people type them.
 */

/** More than any invoice can total (the labour hours at the highest rate plus the materials), in dollars. */
const MAX_CHECKOUT_DOLLARS = 1_000_000;

export const NOTES_REQUIRED = 'Notes Required - Please provide notes when rejecting verification.';

const id = (what: string) => text(`Choose the ${what}`, z.minLength(1, `Choose the ${what}`), z.maxLength(64, `${what} id is too long`));
const optionalId = (field: string) => z.optional(z.nullable(z.string({ error: `${field} must be text` }).check(z.maxLength(64, `${field} is too long`))));

/**
 * POST /api/client-verification: the customer's verdict on the finished work. The customer comes from the
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
 * POST /api/create-checkout-session, with either of two bodies: the invoice view's
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

