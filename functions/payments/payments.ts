import { CURRENCY } from '../../shared/constants';
import type { PayoutStatusView } from '../../shared/schemas/invoice';
import { crewBillPaid } from './crew-bill-events';
import { anchorLine, billLineDescription, billLineName, crewBillOf, leadsACrew, type CrewBill } from './crew-bills';
import { invoicesRepo, type InvoiceItem } from './data/invoices';
import { jobsRepo } from '../jobs/data/jobs';
import { payoutAccountsRepo } from './data/payout-accounts';
import { workersRepo, type WorkerItem } from '../workers/data/workers';
import { env } from '../common/env';
import { paymentCompleted } from '../jobs/job-events';
import { countedLogs } from '../common/counted-logs';
import { logger } from '../common/logger';
import { paymentFailed } from '../owner/owner-events';
import { stripe, type Stripe } from './stripe';
import { mailRepo } from '../mail/data/mail';
import { receipt } from '../mail/messages/customers';
import { payoutSent } from '../mail/messages/pros';

/**
 * Card payments and payouts over the one Stripe adapter. A worker with payouts enabled is
 * paid by a destination charge (their share goes straight to their connected account; the platform
 * fee and the card fee, which the platform pays Stripe, stay with us); otherwise the platform keeps
 * the charge and the share is held, then transferred once they finish onboarding. A crew's bill is
 * one charge the platform keeps, a line per pro; each pro's share is then transferred from it (held
 * until they can be paid, as above). Every Stripe create carries an idempotency key derived from what it
 * is for, and every state change here is a conditional write, so retries and repeated webhooks
 * leave one result.
 */

const CHECKOUT_MINUTES = 60;

/**
 * When a session made now expires, on a whole minute. Two presses of Pay at once send the same
 * idempotency key, and Stripe refuses a key sent again with other parameters: an expiry to the
 * second would differ between them whenever they straddle a second. So the expiry is a whole
 * minute and is part of the key: presses in the same minute get one session; two straddling a
 * minute make two, the first recorded wins and the other press is handed that one (the spare
 * expires unused).
 */
function sessionExpiry(): number {
  return Math.ceil(Date.now() / 60_000) * 60 + CHECKOUT_MINUTES * 60;
}

export interface CheckoutTarget {
  url: string;
  sessionId: string;
}

/** The worker's account, if Stripe can pay them directly now. */
function payableAccount(worker: WorkerItem | undefined): string | null {
  return worker?.stripeAccountId && worker.payoutsEnabled ? worker.stripeAccountId : null;
}

/** The card fee as a line of its own on the Checkout page, so the customer sees what it is; none when 0. */
function cardFeeLine(cents: number) {
  if (cents <= 0) return [];
  return [{ quantity: 1, price_data: { currency: CURRENCY, unit_amount: cents, product_data: { name: 'Card processing fee' } } }];
}

/** A Checkout session for a verified, unpaid invoice; its open session again if it has one. */
export async function checkoutFor(invoice: InvoiceItem, origin: string): Promise<CheckoutTarget | 'complete'> {
  const client = await stripe();
  if (invoice.stripeSessionId) {
    const open = await client.checkout.sessions.retrieve(invoice.stripeSessionId);
    if (open.status === 'open' && open.url) return { url: open.url, sessionId: open.id };
    // Paid but the webhook has not landed yet: never start a second payment. A session whose
    // payment failed is complete too, though nothing was paid: the next Pay makes a new one.
    if (open.status === 'complete' && invoice.paymentStatus !== 'failed') return 'complete';
  }
  const destination = payableAccount(await workersRepo.findById(invoice.workerId));
  const transactionFee = invoice.transactionFee ?? 0;
  const expiresAt = sessionExpiry();
  const session = await client.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: CURRENCY,
            unit_amount: invoice.totalAmount - transactionFee,
            product_data: {
              name: `${invoice.service} — invoice #${invoice.id.slice(-8).toUpperCase()}`,
              description: `${invoice.laborHours.toFixed(1)} h labour by ${invoice.workerName}${(invoice.rushFee ?? 0) > 0 ? ' + rush fee' : ''}${invoice.materialsCost > 0 ? ' + materials' : ''}`,
            },
          },
        },
        ...cardFeeLine(transactionFee),
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
        // The card fee pays Stripe, so it stays with the platform beside its own fee.
        ...(destination ? { application_fee_amount: invoice.platformFee + transactionFee, transfer_data: { destination } } : {}),
      },
      success_url: `${origin}/payment-success?session_id={CHECKOUT_SESSION_ID}&job=${encodeURIComponent(invoice.jobId)}`,
      cancel_url: `${origin}/payment-cancelled?job=${encodeURIComponent(invoice.jobId)}`,
      expires_at: expiresAt,
    },
    // One key per attempt and expiry minute: two clicks on Pay get the same session; after one expires, the next is new.
    { idempotencyKey: `checkout-${invoice.id}-${invoice.checkoutAttempts}-${expiresAt}` },
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

/**
 * One Checkout session for a crew's whole bill, verified and unpaid: a line per pro and one for
 * the card fee of the one charge. No destination: the platform keeps the charge and each pro's
 * share is transferred to them from it once paid (grouped by the request's id). The session is
 * recorded on every line; its idempotency key counts the first line's attempts, so two clicks get
 * the same session and, after one expires, the next is new. Its open session again if it has one.
 */
export async function checkoutForBill(bill: CrewBill, origin: string): Promise<CheckoutTarget | 'complete'> {
  const anchor = anchorLine(bill);
  if (!anchor) throw new Error('checkoutForBill: a bill without lines');
  const client = await stripe();
  if (anchor.stripeSessionId) {
    const open = await client.checkout.sessions.retrieve(anchor.stripeSessionId);
    if (open.status === 'open' && open.url) return { url: open.url, sessionId: open.id };
    if (open.status === 'complete' && anchor.paymentStatus !== 'failed') return 'complete';
  }
  const leadId = bill.lead.id;
  const email = bill.lead.customerEmail ?? anchor.customerEmail;
  const expiresAt = sessionExpiry();
  const session = await client.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [
        ...bill.lines.map((line) => ({
          quantity: 1,
          price_data: {
            currency: CURRENCY,
            unit_amount: line.totalAmount - (line.transactionFee ?? 0),
            product_data: { name: billLineName(line), description: billLineDescription(line) },
          },
        })),
        ...cardFeeLine(bill.transactionFee),
      ],
      ...(email ? { customer_email: email } : {}),
      client_reference_id: leadId,
      metadata: { billRequestId: leadId },
      payment_intent_data: {
        ...(email ? { receipt_email: email } : {}),
        transfer_group: leadId,
        metadata: { billRequestId: leadId },
      },
      success_url: `${origin}/payment-success?session_id={CHECKOUT_SESSION_ID}&job=${encodeURIComponent(leadId)}`,
      cancel_url: `${origin}/payment-cancelled?job=${encodeURIComponent(leadId)}`,
      expires_at: expiresAt,
    },
    { idempotencyKey: `checkout-bill-${leadId}-${anchor.checkoutAttempts}-${expiresAt}` },
  );
  const now = new Date().toISOString();
  const recorded = await invoicesRepo.recordCheckout(anchor.id, { attempts: anchor.checkoutAttempts, sessionId: session.id, now });
  if (!recorded) {
    // Someone recorded a session first (a concurrent click, same key, so the same session) or paid.
    const again = await invoicesRepo.findById(anchor.id);
    if (again?.paymentStatus === 'paid') return 'complete';
    if (again?.stripeSessionId && again.stripeSessionId !== session.id) return checkoutForBill(await crewBillOf(bill.lead), origin);
  }
  // Every line names the session, so its events find each line (each line's own count, conditional as one invoice's).
  await Promise.all(bill.lines.slice(1).map((line) => invoicesRepo.recordCheckout(line.id, { attempts: line.checkoutAttempts, sessionId: session.id, now })));
  return { url: session.url ?? '', sessionId: session.id };
}

/** The bill a crew's Checkout session pays, from its metadata; undefined for one invoice's session, 'none' for a request we do not know as a crew's. */
async function billOf(session: Stripe.Checkout.Session): Promise<CrewBill | 'none' | undefined> {
  const leadId = session.metadata?.billRequestId;
  if (!leadId) return undefined;
  const lead = await jobsRepo.findById(leadId);
  return lead && leadsACrew(lead) ? crewBillOf(lead) : 'none';
}

function invoiceIdOf(session: Stripe.Checkout.Session): string | undefined {
  return session.metadata?.invoiceId || session.client_reference_id || undefined;
}

function paymentIntentId(session: Stripe.Checkout.Session): string | null {
  return typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null);
}

/**
 * A crew's bill was paid: every line paid (each its own conditional write, the share held), each
 * job paid, the customer told once, then each pro's share transferred from the one charge (held
 * when they cannot be paid yet). A second delivery finds every line paid and finishes what a
 * delivery that died midway left, once.
 */
async function settleBillPaid(session: Stripe.Checkout.Session, bill: CrewBill): Promise<void> {
  const now = new Date().toISOString();
  for (const line of bill.lines) {
    const marked = await invoicesRepo.markPaid(line.id, { sessionId: session.id, paymentIntentId: paymentIntentId(session), now, payoutStatus: 'held', payoutAccountId: null });
    if (marked) logger.info(countedLogs.paymentSucceeded, { invoiceId: line.id, jobId: line.jobId, payout: marked.payoutStatus, billRequestId: bill.lead.id });
  }
  const after = await crewBillOf(bill.lead);
  const paidHere = after.lines.filter((l) => l.paymentStatus === 'paid' && l.stripeSessionId === session.id);
  for (const line of paidHere) await jobsRepo.markPaid(line.jobId, now);
  const anchor = anchorLine(after);
  if (anchor && paidHere.includes(anchor) && (await invoicesRepo.claimPaidNotice(anchor.id, now))) await crewBillPaid(after);
  if (anchor && paidHere.includes(anchor)) {
    const { lead } = after;
    await mailReceipt(session, { ...lead, jobId: lead.id, subjectId: lead.id, requestId: lead.id, paidAt: anchor.paidAt }, after.lines, after.transactionFee, after.total);
  }
  // One transfer per pro per line, each with its own idempotency key (releaseHeldPayouts).
  for (const workerId of new Set(paidHere.filter((l) => l.payoutStatus === 'held').map((l) => l.workerId))) await releaseHeldPayouts(workerId);
}

/** The money arrived: invoice paid, job paid, the share transferred or held. Idempotent. */
export async function settlePaid(session: Stripe.Checkout.Session): Promise<void> {
  const bill = await billOf(session);
  if (bill === 'none') {
    logger.warn(countedLogs.paymentForUnknownInvoice, { sessionId: session.id });
    return;
  }
  if (bill) return settleBillPaid(session, bill);
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
  // One invoice's receipt, keyed by the invoice (a crew's lines are paid, and receipted, as their bill).
  await mailReceipt(session, { ...paid, subjectId: paid.id, requestId: paid.crewRequestId ?? paid.jobId }, [paid], paid.transactionFee ?? 0, paid.totalAmount);
  // Paid straight to the pro's account by the charge: their share is on its way now.
  if (paid.payoutStatus === 'transferred') await mailPayout(paid);
  if (paid.payoutStatus === 'held') await releaseHeldPayouts(invoice.workerId);
}

/**
 * The customer's receipt, queued once the payment is recorded: what Stripe charged (the session's
 * amount and currency, from the event itself: no further Stripe call, so no card brand or last
 * four digits, which only the charge carries), the lines it paid, the date, and the request's page.
 * Keyed by the invoice (a bill: the request), so a webhook delivered twice queues one.
 */
async function mailReceipt(
  session: Stripe.Checkout.Session,
  paid: Parameters<typeof receipt>[0] & { paidAt: string | null },
  lines: Parameters<typeof receipt>[1],
  cardFee: number,
  /** What we asked Stripe to charge, for an event that leaves its amount out. */
  total: number,
): Promise<void> {
  const charged = {
    amountTotal: session.amount_total ?? total,
    currency: session.currency ?? CURRENCY,
    paidAt: paid.paidAt ?? new Date().toISOString(),
  };
  const message = receipt(paid, lines, cardFee, charged);
  await mailRepo.queue(message);
}

/** The pro's "payout sent" mail, keyed by the invoice: its share is paid out once. */
async function mailPayout(invoice: InvoiceItem): Promise<void> {
  const worker = await workersRepo.findById(invoice.workerId);
  const message = worker ? payoutSent(worker, invoice) : null;
  await mailRepo.queue(message);
}

export async function settleProcessing(session: Stripe.Checkout.Session): Promise<void> {
  const bill = await billOf(session);
  if (bill) {
    if (bill !== 'none') for (const line of bill.lines) await invoicesRepo.markProcessing(line.id, session.id, new Date().toISOString());
    return;
  }
  const invoiceId = invoiceIdOf(session);
  if (invoiceId) await invoicesRepo.markProcessing(invoiceId, session.id, new Date().toISOString());
}

/** A crew's bill payment failed: every line and job as one invoice's failure; the owner told once, of the bill. */
async function settleBillFailed(session: Stripe.Checkout.Session, bill: CrewBill): Promise<void> {
  const now = new Date().toISOString();
  const failed: InvoiceItem[] = [];
  for (const line of bill.lines) {
    const marked = await invoicesRepo.markFailed(line.id, session.id, now);
    if (!marked) continue;
    failed.push(marked);
    await jobsRepo.markPaymentFailed(marked.jobId, now);
  }
  // Only the delivery that changed the lines logs and tells: a second finds them failed already.
  if (failed.length === 0) return;
  const leadId = bill.lead.id;
  logger.warn(countedLogs.paymentFailed, { invoiceId: failed[0]!.id, jobId: leadId, sessionId: session.id, billRequestId: leadId });
  await paymentFailed({ invoiceId: failed[0]!.id, jobId: leadId, amount: bill.total, service: bill.lead.service });
}

export async function settleFailed(session: Stripe.Checkout.Session): Promise<void> {
  const bill = await billOf(session);
  if (bill) {
    if (bill !== 'none') await settleBillFailed(session, bill);
    return;
  }
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
  const bill = await billOf(session);
  if (bill) {
    if (bill !== 'none') for (const line of bill.lines) await invoicesRepo.forgetSession(line.id, session.id, new Date().toISOString());
    return;
  }
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
        // A crew's lines were paid by one charge, grouped by the request's id.
        transfer_group: invoice.crewRequestId ?? invoice.id,
        ...(typeof charge === 'string' ? { source_transaction: charge } : {}),
        metadata: { invoiceId: invoice.id, workerId },
      },
      { idempotencyKey: `payout-${invoice.id}` },
    );
    const transferred = await invoicesRepo.markTransferred(invoice.id, { transferId: transfer.id, accountId: account, now: new Date().toISOString() });
    logger.info('Held payout released', { invoiceId: invoice.id });
    if (transferred) await mailPayout(transferred);
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
