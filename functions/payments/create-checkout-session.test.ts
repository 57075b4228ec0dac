import { describe, expect, it } from 'vitest';
import { handler } from './create-checkout-session';
import { invoicesRepo } from './data/invoices';
import { newId } from '../common/ids';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { asCustomer, invoicedJob } from '../testing/money';
import { onboardedAccount, pressHostedButton, testStripe } from '../testing/stripe';

const sample = sampleEvent('create-checkout-session');
const pay = async (customerId: string, body: unknown) => invoke(handler, await asCustomer(withBody(sample, body), customerId));

describe('POST /api/create-checkout-session', () => {
  it("opens a Stripe Checkout session for the invoice's total and sends the customer back to the payment pages", async () => {
    // Prepare
    const { job, invoice } = await invoicedJob({ verified: true });

    // Act
    const res = await pay(job.customerId, { invoiceId: invoice.id, workerStripeAccountId: null });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, url: expect.stringMatching(/\/checkout\/cs_test_/), sessionId: expect.stringMatching(/^cs_test_/) });
    const session = await testStripe.checkout.sessions.retrieve(res.body.sessionId);
    expect(session).toMatchObject({
      status: 'open',
      amount_total: invoice.totalAmount,
      currency: 'usd',
      client_reference_id: invoice.id,
      customer_email: job.customerEmail,
      metadata: { invoiceId: invoice.id, jobId: job.id },
      success_url: `http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}&job=${job.id}`,
      cancel_url: `http://localhost:3000/payment-cancelled?job=${job.id}`,
    });
    expect((await invoicesRepo.findById(invoice.id))?.stripeSessionId).toBe(session.id);
  });

  it('hands back the same open session to a second press of Pay, and to two presses at once', async () => {
    // Prepare
    const { job, invoice } = await invoicedJob({ verified: true });

    // Act
    const together = await Promise.all([pay(job.customerId, { invoiceId: invoice.id }), pay(job.customerId, { invoiceId: invoice.id })]);
    const later = await pay(job.customerId, { invoiceId: invoice.id });

    // Assess
    const ids = new Set([...together, later].map((r) => r.body.sessionId));
    expect(ids.size).toBe(1);
    expect((await invoicesRepo.findById(invoice.id))?.checkoutAttempts).toBe(1);
  });

  it('starts a fresh session once the previous one expired unpaid', async () => {
    const { job, invoice } = await invoicedJob({ verified: true });
    const first = await pay(job.customerId, { invoiceId: invoice.id });
    await testStripe.checkout.sessions.expire(first.body.sessionId);

    const second = await pay(job.customerId, { invoiceId: invoice.id });

    expect(second.status).toBe(200);
    expect(second.body.sessionId).not.toBe(first.body.sessionId);
  });

  it("charges a worker with payouts enabled by destination charge: their account gets the share, the platform its fee and the card fee it pays Stripe", async () => {
    // Prepare
    const accountId = await onboardedAccount();
    const { job, invoice } = await invoicedJob({ verified: true, worker: { stripeAccountId: accountId, payoutsEnabled: true } });

    // Act
    const res = await pay(job.customerId, { jobId: job.id, workerId: invoice.workerId, clientEmail: 'x@example.com', amount: invoice.totalAmount / 100, description: 'Invoice' });
    await pressHostedButton(res.body.url, 'pay');

    // Assess
    const session = await testStripe.checkout.sessions.retrieve(res.body.sessionId);
    expect(session.metadata?.destination).toBe(accountId);
    const intent = await testStripe.paymentIntents.retrieve(session.payment_intent as string);
    expect(intent).toMatchObject({ amount: invoice.totalAmount, application_fee_amount: invoice.platformFee + invoice.transactionFee!, transfer_data: { destination: accountId } });
    expect(invoice.transactionFee).toBeGreaterThan(0);
    expect(intent.amount - intent.application_fee_amount!).toBe(invoice.workerShare);
  });

  it('pays again by a new session after a payment failed', async () => {
    // Prepare: a session completed on Stripe's page whose payment then failed (a bank debit bounced)
    const { job, invoice } = await invoicedJob({ verified: true });
    const first = await pay(job.customerId, { invoiceId: invoice.id });
    await pressHostedButton(first.body.url, 'pay');
    await invoicesRepo.markFailed(invoice.id, first.body.sessionId, new Date().toISOString());

    // Act
    const again = await pay(job.customerId, { invoiceId: invoice.id });
    const pressedTwice = await pay(job.customerId, { invoiceId: invoice.id });

    // Assess: a new session, the same one for a second press
    expect(again.status).toBe(200);
    expect(again.body.sessionId).not.toBe(first.body.sessionId);
    expect(pressedTwice.body.sessionId).toBe(again.body.sessionId);
    expect((await invoicesRepo.findById(invoice.id))?.stripeSessionId).toBe(again.body.sessionId);
  });

  it('refuses an invoice the customer has not verified (409), and opens no session', async () => {
    const { job, invoice } = await invoicedJob({ verified: false });

    const res = await pay(job.customerId, { invoiceId: invoice.id });

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Verify the work on this invoice before paying.');
    expect((await invoicesRepo.findById(invoice.id))?.stripeSessionId).toBeNull();
  });

  it('refuses a paid invoice, another customer\'s, a wrong amount and a body naming nothing', async () => {
    // Prepare
    const paid = await invoicedJob({ verified: true });
    await invoicesRepo.markPaid(paid.invoice.id, { sessionId: 'cs_x', paymentIntentId: null, now: new Date().toISOString(), payoutStatus: 'held', payoutAccountId: null });
    const other = await invoicedJob({ verified: true });

    // Act
    const alreadyPaid = await pay(paid.job.customerId, { invoiceId: paid.invoice.id });
    const notTheirs = await pay(newId(), { invoiceId: other.invoice.id });
    const wrongAmount = await pay(other.job.customerId, { jobId: other.job.id, amount: 75 });
    const nothing = await pay(other.job.customerId, { workerStripeAccountId: null });

    // Assess
    expect([alreadyPaid.status, notTheirs.status, wrongAmount.status, nothing.status]).toEqual([409, 404, 409, 400]);
    expect(alreadyPaid.body.message).toBe('This invoice is already paid.');
    expect(wrongAmount.body.message).toBe(`The invoice total is $${(other.invoice.totalAmount / 100).toFixed(2)}. Reload the invoice and pay again.`);
    expect(nothing.body.fields.invoiceId).toBe('Send the invoiceId (or the jobId) to pay');
    expect((await invoicesRepo.findById(other.invoice.id))?.stripeSessionId).toBeNull();
  });

  it('refuses a call that does not say which site it came from (no Origin), with a message', async () => {
    const { job, invoice } = await invoicedJob({ verified: true });
    const { origin: _origin, ...headers } = sample.headers;

    const res = await invoke(handler, await asCustomer({ ...withBody(sample, { invoiceId: invoice.id }), headers }, job.customerId));

    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Open this page from the site/);
  });
});
