import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { invoiceEntity, jobEntity } from '../../shared/entities';
import { handler as createBillCheckout } from './create-bill-checkout';
import { dynamo, tableName } from '../common/clients';
import { verifiedCrew } from '../testing/crew-bills';
import { mailsTo, outboxRecord } from '../testing/mail';
import { asCustomer } from '../testing/money';
import { pressHostedButton, testStripe } from '../testing/stripe';
import { withPath } from '../testing/events';
import { handler as sendMail } from '../mail/send-mail';
import { handler as confirmPayment } from './get-payment-confirmation';

/** The payment page's question, without a session id (its sample event names one of its own). */
const confirmation = (jobId: string) => invoke(confirmPayment, { ...withPath(sampleEvent('get-payment-confirmation'), { id: jobId }), queryStringParameters: {} });
import { handler } from './handle-stripe-webhook';
import { invoicesRepo } from './data/invoices';
import { jobsRepo } from '../jobs/data/jobs';
import { payoutAccountsRepo } from './data/payout-accounts';
import { workersRepo } from '../workers/data/workers';
import { newId } from '../common/ids';
import { invoke, sampleEvent } from '../testing/events';
import { invoicedJob } from '../testing/money';
import { completedSession, onboardedAccount, signedStripeEvent, stripeKeys, withOwnStripeSecret } from '../testing/stripe';
import { createTestWorker } from '../testing/workers';

const sample = sampleEvent('handle-stripe-webhook');

describe('POST /api/stripe/webhook', () => {
  it('marks the invoice and the job paid on checkout.session.completed; the share is held for a worker without payouts', async () => {
    // Prepare
    const { invoice, job } = await invoicedJob({ verified: true });
    const paid = completedSession(invoice);

    // Act
    const res = await invoke(handler, signedStripeEvent('checkout.session.completed', paid));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ paymentStatus: 'paid', paidAt: expect.any(String), stripeSessionId: paid.id, stripePaymentIntentId: paid.payment_intent, payoutStatus: 'held' });
    expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'paid', paidAt: expect.any(String) });
  });

  it("records a destination charge's share as transferred to the worker's account", async () => {
    const { invoice } = await invoicedJob({ verified: true });

    await invoke(handler, signedStripeEvent('checkout.session.completed', completedSession(invoice, { metadata: { invoiceId: invoice.id, jobId: invoice.jobId, destination: 'acct_123' } })));

    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ paymentStatus: 'paid', payoutStatus: 'transferred', payoutAccountId: 'acct_123' });
  });

  it('changes nothing when the same event is delivered twice', async () => {
    // Prepare
    const { invoice } = await invoicedJob({ verified: true });
    const event = signedStripeEvent('checkout.session.completed', completedSession(invoice), { id: `evt_${newId()}` });
    await invoke(handler, event);
    const first = await invoicesRepo.findById(invoice.id);

    // Act
    const again = await invoke(handler, event);

    // Assess
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    expect(await invoicesRepo.findById(invoice.id)).toEqual(first);
  });

  it('pays once when two deliveries of the event race', async () => {
    const { invoice, job } = await invoicedJob({ verified: true });
    const event = signedStripeEvent('checkout.session.completed', completedSession(invoice));

    const results = await Promise.all([invoke(handler, event), invoke(handler, event)]);

    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ paymentStatus: 'paid' });
    expect((await jobsRepo.findById(job.id))?.state).toBe('paid');
  });

  it('refuses a bad signature with 400 and changes nothing, the Connect endpoint\'s secret included', async () => {
    // Prepare
    const { invoice, job } = await invoicedJob({ verified: true });
    const forged = signedStripeEvent('checkout.session.completed', completedSession(invoice), { secret: 'whsec_not_ours' });
    const otherEndpoint = signedStripeEvent('checkout.session.completed', completedSession(invoice), { secret: stripeKeys.connectWebhookSecret });
    const tampered = signedStripeEvent('checkout.session.completed', completedSession(invoice));
    tampered.body = tampered.body!.replace('"paid"', '"paid" ');

    // Act
    const results = [
      await invoke(handler, forged),
      await invoke(handler, otherEndpoint),
      await invoke(handler, tampered),
      await invoke(handler, { ...sample, body: tampered.body, headers: { ...sample.headers } }),
    ];

    // Assess
    expect(results.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    expect(results[1]!.body).toEqual({ error: 'BadRequestError', message: "The webhook signature does not match the endpoint's signing secret." });
    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ paymentStatus: 'pending' });
    expect((await jobsRepo.findById(job.id))?.state).toBe('verified');
  });

  it('keeps a paid invoice paid when the expiry of its session arrives late, out of order', async () => {
    const { invoice } = await invoicedJob({ verified: true });
    const paid = completedSession(invoice);
    await invoke(handler, signedStripeEvent('checkout.session.completed', paid));

    await invoke(handler, signedStripeEvent('checkout.session.expired', { ...paid, status: 'expired', payment_status: 'unpaid' }));
    await invoke(handler, signedStripeEvent('checkout.session.async_payment_failed', { ...paid, payment_status: 'unpaid' }));

    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ paymentStatus: 'paid', stripeSessionId: paid.id });
  });

  it('forgets an expired session so the next Pay starts afresh, but only that session', async () => {
    // Prepare
    const { invoice } = await invoicedJob({ verified: true });
    await invoicesRepo.recordCheckout(invoice.id, { attempts: 0, sessionId: 'cs_test_current', now: new Date().toISOString() });

    // Act
    await invoke(handler, signedStripeEvent('checkout.session.expired', completedSession(invoice, { id: 'cs_test_older', status: 'expired', payment_status: 'unpaid' })));
    const afterOther = await invoicesRepo.findById(invoice.id);
    await invoke(handler, signedStripeEvent('checkout.session.expired', completedSession(invoice, { id: 'cs_test_current', status: 'expired', payment_status: 'unpaid' })));

    // Assess
    expect(afterOther?.stripeSessionId).toBe('cs_test_current');
    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ stripeSessionId: null, paymentStatus: 'pending', checkoutAttempts: 1 });
  });

  it('follows an async payment: processing, then failed, and paid when a later attempt succeeds', async () => {
    // Prepare
    const { invoice, job } = await invoicedJob({ verified: true });
    const bank = completedSession(invoice, { payment_status: 'unpaid' });

    // Act / Assess
    await invoke(handler, signedStripeEvent('checkout.session.completed', bank));
    expect((await invoicesRepo.findById(invoice.id))?.paymentStatus).toBe('processing');
    await invoke(handler, signedStripeEvent('checkout.session.async_payment_failed', bank));
    expect((await invoicesRepo.findById(invoice.id))?.paymentStatus).toBe('failed');
    expect((await jobsRepo.findById(job.id))?.state).toBe('verified');
    await invoke(handler, signedStripeEvent('checkout.session.async_payment_succeeded', completedSession(invoice)));
    expect((await invoicesRepo.findById(invoice.id))?.paymentStatus).toBe('paid');
    expect((await jobsRepo.findById(job.id))?.state).toBe('paid');
  });

  it('verifies with a signing secret rolled since the function read it, without a deploy', async () => {
    // Prepare: the operator rolled the endpoint's secret; this container still holds the old one.
    const { handler: running, rotate } = await withOwnStripeSecret(async () => (await import('./handle-stripe-webhook')).handler);
    const { invoice } = await invoicedJob({ verified: true });
    const warmUp = await invoke(running, signedStripeEvent('customer.created', { id: 'cus_warm', object: 'customer' }));
    await rotate({ webhookSecret: 'whsec_rolled_platform_secret' });
    const event = signedStripeEvent('checkout.session.completed', completedSession(invoice), { secret: 'whsec_rolled_platform_secret' });

    // Act
    const res = await invoke(running, event);
    const old = await invoke(running, signedStripeEvent('customer.created', { id: 'cus_old', object: 'customer' }));

    // Assess
    expect(warmUp.status).toBe(200);
    expect(res.status).toBe(200);
    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ paymentStatus: 'paid' });
    expect(old.status).toBe(400);
  });

  it("leaves connected accounts' events to the Connect endpoint: an account.updated here changes nothing", async () => {
    // Prepare
    const worker = await createTestWorker();
    const accountId = await onboardedAccount(worker.email);
    await payoutAccountsRepo.attach(worker.id, accountId, new Date().toISOString());

    // Act
    const res = await invoke(handler, signedStripeEvent('account.updated', { id: accountId, object: 'account', payouts_enabled: true, charges_enabled: true }));

    // Assess
    expect(res.status).toBe(200);
    expect((await workersRepo.findById(worker.id))?.payoutsEnabled).toBeFalsy();
  });

  it('acknowledges events it does not act on, and a payment for an unknown invoice, without changing anything', async () => {
    const res = await invoke(handler, signedStripeEvent('customer.created', { id: 'cus_1', object: 'customer' }));
    const unknown = await invoke(handler, signedStripeEvent('checkout.session.completed', { id: 'cs_test_x', object: 'checkout.session', payment_status: 'paid', metadata: { invoiceId: newId() } }));

    expect(res.status).toBe(200);
    expect(unknown.status).toBe(200);
  });
});

/** Gives the stored item a customer address of the test's own, as the customer's form would have. */
async function mailedTo(key: { pk: string; sk: string }, email: string | null) {
  await dynamo.send(new UpdateCommand({ TableName: tableName, Key: key, UpdateExpression: 'SET customerEmail = :e', ExpressionAttributeValues: { ':e': email } }));
}

describe('POST /api/stripe/webhook: the receipt and the payout mails', () => {
  it("mails the customer one receipt of what Stripe charged, line by line, with the request's page, however often the event comes", async () => {
    // Prepare: 2.5 h at the pro's rate, $42.50 of materials, the card fee; the customer's own address
    const email = `receipt-${crypto.randomUUID()}@example.com`;
    const { invoice, job } = await invoicedJob({ verified: true });
    await mailedTo(invoiceEntity.key(invoice.id), email);
    const event = signedStripeEvent('checkout.session.completed', completedSession(invoice, { amount_total: invoice.totalAmount, currency: 'usd' }), { id: `evt_${newId()}` });

    // Act: the event twice (and once more under another id), the mail's record twice
    await invoke(handler, event);
    await invoke(handler, event);
    await invoke(handler, signedStripeEvent('checkout.session.completed', completedSession(invoice, { id: (await invoicesRepo.findById(invoice.id))!.stripeSessionId })));
    const record = await outboxRecord('receipt', invoice.id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    const total = `$${(invoice.totalAmount / 100).toFixed(2)}`;
    expect(mails[0]!.subject).toBe(`Your receipt from Fixly: ${total}`);
    expect(mails[0]!.text).toContain(`we received your card payment of ${total}`);
    expect(mails[0]!.text).toContain(`2.5 h of labour at $${(invoice.hourlyRate / 100).toFixed(2)}/h`);
    expect(mails[0]!.text).toContain('materials of $42.50');
    expect(mails[0]!.text).toContain(`Card processing: $${(invoice.transactionFee! / 100).toFixed(2)}.`);
    expect(mails[0]!.text).toContain(`View your request: http://localhost:3000/track#id=${job.id}`);    // The payment page may say the receipt was emailed.
    expect((await confirmation(job.id)).body).toMatchObject({ paid: true, receiptEmailed: true });
  });

  it('records the payment of a customer who gave no email without any mail', async () => {
    const { invoice } = await invoicedJob({ verified: true });
    await mailedTo(invoiceEntity.key(invoice.id), null);

    const res = await invoke(handler, signedStripeEvent('checkout.session.completed', completedSession(invoice)));

    expect(res.status).toBe(200);
    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ paymentStatus: 'paid' });
    await expect(outboxRecord('receipt', invoice.id)).rejects.toThrow('No outbox mail');    // ...and the payment page keeps its own wording: nothing was mailed by us.
    expect((await confirmation(invoice.jobId)).body).toMatchObject({ paid: true, receiptEmailed: false });
  });

  it("mails the pro once that their share is on its way when the charge pays their account directly, with their invoices page", async () => {
    // Prepare
    const { invoice, worker } = await invoicedJob({ verified: true });
    const event = signedStripeEvent('checkout.session.completed', completedSession(invoice, { metadata: { invoiceId: invoice.id, jobId: invoice.jobId, destination: 'acct_123' } }));

    // Act
    await invoke(handler, event);
    await invoke(handler, event);
    const record = await outboxRecord('payout-sent', invoice.id);
    await sendMail({ Records: [record] });
    await sendMail({ Records: [record] });

    // Assess
    const mails = await mailsTo(worker.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`$${(invoice.workerShare / 100).toFixed(2)} is on its way to you`);
    expect(mails[0]!.text).toContain(`See your invoices: http://localhost:3000/invoices`);
  });

  it("mails a crew's customer one receipt for the whole bill, and each pro once when their share is transferred from the one charge", async () => {
    // Prepare: two pros with payouts enabled, the customer's own address on the request
    const email = `billreceipt-${crypto.randomUUID()}@example.com`;
    const crew = await verifiedCrew([
      { worker: { stripeAccountId: await onboardedAccount('ana@example.com'), payoutsEnabled: true } },
      { worker: { stripeAccountId: await onboardedAccount('ben@example.com'), payoutsEnabled: true } },
    ]);
    await mailedTo(jobEntity.key(crew.lead.id), email);
    const res = await invoke(createBillCheckout, await asCustomer(withPath(sampleEvent('create-bill-checkout'), { id: crew.lead.id }), crew.customerId));
    await pressHostedButton(res.body.url, 'pay');
    const session = await testStripe.checkout.sessions.retrieve(res.body.sessionId);
    const event = signedStripeEvent('checkout.session.completed', session as unknown as Record<string, unknown>, { id: `evt_${newId()}` });

    // Act: the event twice
    await invoke(handler, event);
    await invoke(handler, event);
    await sendMail({ Records: [await outboxRecord('receipt', crew.lead.id)] });
    for (const line of crew.invoices) await sendMail({ Records: [await outboxRecord('payout-sent', line!.id)] });

    // Assess
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Your receipt from Fixly: $${(session.amount_total! / 100).toFixed(2)}`);
    for (const worker of crew.workers) expect(mails[0]!.text).toContain(`${worker!.fullName}: 2.0 h of labour`);
    expect(mails[0]!.text).toContain(`View your request: http://localhost:3000/track#id=${crew.lead.id}`);
    for (const worker of crew.workers) expect(await mailsTo(worker!.email)).toHaveLength(1);
  });
});
