import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../payments/handle-stripe-webhook';
import { handler as acceptJob } from '../jobs/accept-job';
import { alarmedLogs, countedLogs } from './counted-logs';
import { newId } from './ids';
import { invoicedJob } from '../testing/money';
import { completedSession, signedStripeEvent } from '../testing/stripe';
import { dispatchableWorker, offeredJob, testCategory } from '../testing/dispatch';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { withBearer, workerToken } from '../testing/workers';

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

describe('the lines the stack alarms on (alarmedLogs)', () => {
  it('writes one conflict line, with its route, for each call that lost a race and was answered 409', async () => {
    // Prepare: one job offered to two pros, who both accept it at once.
    const category = testCategory();
    const workers = await Promise.all([dispatchableWorker(category, null), dispatchableWorker(category, null)]);
    const job = await offeredJob(category, workers.map((w) => w.id));
    const accept = async (workerId: string) =>
      invoke(acceptJob, withBearer(withPath(withBody(sampleEvent('accept-job'), { workerId }), { jobId: job.id }), await workerToken(workerId)));

    // Act
    const results = await Promise.all(workers.map((w) => accept(w.id)));

    // Assess
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(counted(alarmedLogs.conflictAnswered)).toEqual([
      expect.objectContaining({ level: 'warn', message: alarmedLogs.conflictAnswered, route: 'accept-job', errorName: 'ConflictError' }),
    ]);
  });

  it('writes no conflict line for a call that succeeds', async () => {
    // Prepare
    const category = testCategory();
    const worker = await dispatchableWorker(category, null);
    const job = await offeredJob(category, [worker.id]);

    // Act
    const res = await invoke(acceptJob, withBearer(withPath(withBody(sampleEvent('accept-job'), { workerId: worker.id }), { jobId: job.id }), await workerToken(worker.id)));

    // Assess
    expect(res.status).toBe(200);
    expect(counted(alarmedLogs.conflictAnswered)).toEqual([]);
  });
});
