import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../payments/handle-stripe-webhook';
import { countedLogs } from './counted-logs';
import { newId } from './ids';
import { invoke } from '../testing/events';
import { invoicedJob } from '../testing/money';
import { completedSession, signedStripeEvent } from '../testing/stripe';

/** Every line the functions wrote (the logger writes one JSON object per console call). */
let lines: string[] = [];
beforeEach(() => {
  lines = [];
  const capture = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  vi.spyOn(console, 'log').mockImplementation(capture);
  vi.spyOn(console, 'error').mockImplementation(capture);
});
afterEach(() => vi.restoreAllMocks());

/** The lines a metric filter on this exact phrase counts, parsed. */
const counted = (phrase: string) => lines.filter((line) => line.includes(phrase)).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the payment lines the stack counts as metrics (functions/common/counted-logs.ts)', () => {
  it('writes one failed and one paid line per invoice, with its ids, however many times Stripe repeats the news', async () => {
    // Prepare
    const { invoice } = await invoicedJob({ verified: true });
    const bank = completedSession(invoice, { payment_status: 'unpaid' });
    const paid = completedSession(invoice);

    // Act
    await invoke(handler, signedStripeEvent('checkout.session.completed', bank));
    await invoke(handler, signedStripeEvent('checkout.session.async_payment_failed', bank));
    await invoke(handler, signedStripeEvent('checkout.session.async_payment_failed', bank));
    await invoke(handler, signedStripeEvent('checkout.session.async_payment_succeeded', paid));
    await invoke(handler, signedStripeEvent('checkout.session.async_payment_succeeded', paid));

    // Assess
    expect(counted(countedLogs.paymentFailed)).toEqual([
      expect.objectContaining({ level: 'warn', message: countedLogs.paymentFailed, invoiceId: invoice.id, jobId: invoice.jobId, sessionId: bank.id }),
    ]);
    expect(counted(countedLogs.paymentSucceeded)).toEqual([
      expect.objectContaining({ level: 'info', message: countedLogs.paymentSucceeded, invoiceId: invoice.id, jobId: invoice.jobId }),
    ]);
  });

  it('writes a line for a refused signature and for a payment naming no invoice of ours', async () => {
    // Prepare
    const { invoice } = await invoicedJob({ verified: true });
    const forged = signedStripeEvent('checkout.session.completed', completedSession(invoice), { secret: 'whsec_not_ours' });
    const stranger = signedStripeEvent('checkout.session.completed', {
      id: 'cs_test_stranger',
      object: 'checkout.session',
      payment_status: 'paid',
      metadata: { invoiceId: newId() },
    });

    // Act
    const refused = await invoke(handler, forged);
    const unknown = await invoke(handler, stranger);

    // Assess
    expect(refused.status).toBe(400);
    expect(unknown.status).toBe(200);
    expect(counted(countedLogs.webhookSignatureRefused)).toHaveLength(1);
    expect(counted(countedLogs.paymentForUnknownInvoice)).toEqual([expect.objectContaining({ sessionId: 'cs_test_stranger' })]);
    expect(counted(countedLogs.paymentSucceeded)).toEqual([]);
  });
});
