import { CURRENCY } from '../../shared/constants';
import type { PayoutStatusView } from '../../shared/schemas/invoice';
import { invoicesRepo, type InvoiceItem } from './data/invoices';
import { jobsRepo } from './data/jobs';
import { payoutAccountsRepo } from './data/payout-accounts';
import { workersRepo, type WorkerItem } from './data/workers';
import { env } from './env';
import { paymentCompleted } from './job-events';
import { countedLogs } from './counted-logs';
import { logger } from './logger';
import { paymentFailed } from './owner-events';
import { stripe, type Stripe } from './stripe';

/**
 * Card payments and payouts over the one Stripe adapter. A worker with payouts enabled is
 * paid by a destination charge (their share goes straight to their connected account, the fee
 * stays with us); otherwise the platform keeps the charge and the share is held, then transferred
 * once they finish onboarding. Every Stripe create carries an idempotency key derived from what it
 * is for, and every state change here is a conditional write, so retries and repeated webhooks
 * leave one result.
 */

const CHECKOUT_MINUTES = 60;

export interface CheckoutTarget {
  url: string;
  sessionId: string;
}

/** The worker's account, if Stripe can pay them directly now. */
function payableAccount(worker: WorkerItem | undefined): string | null {
  return worker?.stripeAccountId && worker.payoutsEnabled ? worker.stripeAccountId : null;
}

/** A Checkout session for a verified, unpaid invoice; its open session again if it has one. */
export async function checkoutFor(invoice: InvoiceItem, origin: string): Promise<CheckoutTarget | 'complete'> {
  const client = await stripe();
  if (invoice.stripeSessionId) {
    const open = await client.checkout.sessions.retrieve(invoice.stripeSessionId);
    if (open.status === 'open' && open.url) return { url: open.url, sessionId: open.id };
    // Paid but the webhook has not landed yet: never start a second payment.
    if (open.status === 'complete') return 'complete';
  }
  const destination = payableAccount(await workersRepo.findById(invoice.workerId));
  const session = await client.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: CURRENCY,
            unit_amount: invoice.totalAmount,
            product_data: {
              name: `${invoice.service} — invoice #${invoice.id.slice(-8).toUpperCase()}`,
              description: `${invoice.laborHours.toFixed(1)} h labour by ${invoice.workerName}${invoice.materialsCost > 0 ? ' + materials' : ''}`,
            },
          },
        },
      ],
      ...(invoice.customerEmail ? { customer_email: invoice.customerEmail } : {}),
      client_reference_id: invoice.id,
      // Stripe drops empty metadata values: the key is there only for a destination charge.
      metadata: { invoiceId: invoice.id, jobId: invoice.jobId, ...(destination ? { destination } : {}) },
      payment_intent_data: {
        // Stripe emails the receipt the payment page promises.
        ...(invoice.customerEmail ? { receipt_email: invoice.customerEmail } : {}),
        transfer_group: invoice.id,
        metadata: { invoiceId: invoice.id, jobId: invoice.jobId },
        ...(destination ? { application_fee_amount: invoice.platformFee, transfer_data: { destination } } : {}),
      },
      success_url: `${origin}/payment-success?session_id={CHECKOUT_SESSION_ID}&job=${encodeURIComponent(invoice.jobId)}`,
      cancel_url: `${origin}/payment-cancelled?job=${encodeURIComponent(invoice.jobId)}`,
      expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_MINUTES * 60,
    },
    // One key per attempt: two clicks on Pay get the same session; after one expires, the next is new.
    { idempotencyKey: `checkout-${invoice.id}-${invoice.checkoutAttempts}` },
  );
  const recorded = await invoicesRepo.recordCheckout(invoice.id, { attempts: invoice.checkoutAttempts, sessionId: session.id, now: new Date().toISOString() });
  if (!recorded) {
    // Someone recorded a session first (a concurrent click, same key, so the same session) or paid.
    const now = await invoicesRepo.findById(invoice.id);
    if (now?.paymentStatus === 'paid') return 'complete';
    if (now?.stripeSessionId && now.stripeSessionId !== session.id) return checkoutFor(now, origin);
  }
  return { url: session.url ?? '', sessionId: session.id };
}

function invoiceIdOf(session: Stripe.Checkout.Session): string | undefined {
  return session.metadata?.invoiceId || session.client_reference_id || undefined;
}

function paymentIntentId(session: Stripe.Checkout.Session): string | null {
  return typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
}

/** The money arrived: invoice paid, job paid, the share transferred or held. Idempotent. */
export async function settlePaid(session: Stripe.Checkout.Session): Promise<void> {
  const invoiceId = invoiceIdOf(session);
  const invoice = invoiceId ? await invoicesRepo.findById(invoiceId) : undefined;
  if (!invoice) {
    logger.warn(countedLogs.paymentForUnknownInvoice, { sessionId: session.id });
    return;
  }
  const destination = session.metadata?.destination || null;
  const now = new Date().toISOString();
  const marked = await invoicesRepo.markPaid(invoice.id, {
    sessionId: session.id,
    paymentIntentId: paymentIntentId(session),
    now,
    payoutStatus: destination ? 'transferred' : 'held',
    payoutAccountId: destination,
  });
  if (marked) logger.info(countedLogs.paymentSucceeded, { invoiceId: invoice.id, jobId: invoice.jobId, payout: marked.payoutStatus });
  // Already paid: by this session in a delivery that died midway (Stripe retries it, and every step
  // below is conditional or keyed, so it finishes that work once), or by another session, which
  // its own delivery settles.
  const paid = marked ?? (await invoicesRepo.findById(invoice.id));
  if (paid?.paymentStatus !== 'paid' || paid.stripeSessionId !== session.id) return;
  await jobsRepo.markPaid(invoice.jobId, now);
  if (await invoicesRepo.claimPaidNotice(invoice.id, now)) await paymentCompleted(paid);
  if (paid.payoutStatus === 'held') await releaseHeldPayouts(invoice.workerId);
}

export async function settleProcessing(session: Stripe.Checkout.Session): Promise<void> {
  const invoiceId = invoiceIdOf(session);
  if (invoiceId) await invoicesRepo.markProcessing(invoiceId, session.id, new Date().toISOString());
}

export async function settleFailed(session: Stripe.Checkout.Session): Promise<void> {
  const invoiceId = invoiceIdOf(session);
  if (!invoiceId) return;
  const now = new Date().toISOString();
  const failed = await invoicesRepo.markFailed(invoiceId, session.id, now);
  // Only the write that changed the invoice logs it: the payments dashboard counts these lines.
  if (!failed) return;
  // Among the open jobs again, so the owner's "Needs attention" shows it until it is paid.
  await jobsRepo.markPaymentFailed(failed.jobId, now);
  logger.warn(countedLogs.paymentFailed, { invoiceId, jobId: failed.jobId, sessionId: session.id });
  // Told once, like the log line: a second delivery of the event finds the invoice already failed.
  await paymentFailed({ invoiceId, jobId: failed.jobId, amount: failed.totalAmount, service: failed.service });
}

export async function forgetExpired(session: Stripe.Checkout.Session): Promise<void> {
  const invoiceId = invoiceIdOf(session);
  if (invoiceId) await invoicesRepo.forgetSession(invoiceId, session.id, new Date().toISOString());
}

/**
 * Shares held for a worker go to their connected account once Stripe enables payouts: one
 * transfer per invoice, tied to its charge, its idempotency key from the invoice.
 */
export async function releaseHeldPayouts(workerId: string): Promise<void> {
  const worker = await workersRepo.findById(workerId);
  const account = payableAccount(worker);
  if (!account) return;
  const held = (await invoicesRepo.listForWorker(workerId)).filter((i) => i.paymentStatus === 'paid' && i.payoutStatus === 'held');
  const client = await stripe();
  for (const invoice of held) {
    const charge = invoice.stripePaymentIntentId ? (await client.paymentIntents.retrieve(invoice.stripePaymentIntentId)).latest_charge : null;
    const transfer = await client.transfers.create(
      {
        amount: invoice.workerShare,
        currency: CURRENCY,
        destination: account,
        transfer_group: invoice.id,
        ...(typeof charge === 'string' ? { source_transaction: charge } : {}),
        metadata: { invoiceId: invoice.id, workerId },
      },
      { idempotencyKey: `payout-${invoice.id}` },
    );
    await invoicesRepo.markTransferred(invoice.id, { transferId: transfer.id, accountId: account, now: new Date().toISOString() });
    logger.info('Held payout released', { invoiceId: invoice.id });
  }
}

/** What Stripe says of the account now, recorded on the profile; releases held shares when enabled. */
export async function refreshAccount(workerId: string, accountId: string): Promise<boolean> {
  const account = await (await stripe()).accounts.retrieve(accountId);
  const enabled = Boolean(account.payouts_enabled && account.charges_enabled);
  await payoutAccountsRepo.setPayoutsEnabled(workerId, accountId, enabled, new Date().toISOString());
  if (enabled) await releaseHeldPayouts(workerId);
  return enabled;
}

export async function payoutStatusOf(worker: WorkerItem): Promise<PayoutStatusView> {
  let enabled = Boolean(worker.payoutsEnabled);
  if (worker.stripeAccountId && !enabled) enabled = await refreshAccount(worker.id, worker.stripeAccountId);
  let invoices = await invoicesRepo.listForWorker(worker.id);
  if (enabled && invoices.some((i) => i.paymentStatus === 'paid' && i.payoutStatus === 'held')) {
    // A release that failed before (Stripe unreachable) is retried whenever the worker looks.
    await releaseHeldPayouts(worker.id);
    invoices = await invoicesRepo.listForWorker(worker.id);
  }
  const held = invoices.filter((i) => i.paymentStatus === 'paid' && i.payoutStatus === 'held');
  return {
    status: !worker.stripeAccountId ? 'not_started' : enabled ? 'enabled' : 'pending',
    accountId: worker.stripeAccountId ?? null,
    heldCents: held.reduce((sum, i) => sum + i.workerShare, 0),
    heldCount: held.length,
    transferredCents: invoices.filter((i) => i.payoutStatus === 'transferred').reduce((sum, i) => sum + i.workerShare, 0),
    feePercent: env.PLATFORM_FEE_PERCENT,
  };
}
