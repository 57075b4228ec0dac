import { describe, expect, it } from 'vitest';
import { handler as checkout } from './create-bill-checkout';
import { handler as confirmPayment } from './get-payment-confirmation';
import { handler } from './handle-stripe-webhook';
import { invoicesRepo } from './data/invoices';
import { jobsRepo } from '../jobs/data/jobs';
import { notificationsRepo } from '../realtime/data/notifications';
import { newId } from '../common/ids';
import { verifiedCrew } from '../testing/crew-bills';
import { invoke, sampleEvent, withPath } from '../testing/events';
import { asCustomer } from '../testing/money';
import { onboardedAccount, pressHostedButton, signedStripeEvent, testStripe } from '../testing/stripe';

type Crew = Awaited<ReturnType<typeof verifiedCrew>>;

/** The customer checks the bill out and pays on the hosted page; the completed session, as its webhook event carries it. */
async function paidBill(crew: Crew) {
  const res = await invoke(checkout, await asCustomer(withPath(sampleEvent('create-bill-checkout'), { id: crew.lead.id }), crew.customerId));
  await pressHostedButton(res.body.url, 'pay');
  return testStripe.checkout.sessions.retrieve(res.body.sessionId);
}

const completed = (session: object, id = `evt_${newId()}`) => signedStripeEvent('checkout.session.completed', session as Record<string, unknown>, { id });
const lines = (crew: Crew) => invoicesRepo.findMany(crew.invoices.map((i) => i!.id)).then((found) => crew.invoices.map((i) => found.find((f) => f.id === i!.id)!));

describe("POST /api/stripe/webhook: a crew's bill", () => {
  it('pays every line of the bill once, marks every job paid and sends each pro their share from the one charge, however often the event comes', async () => {
    // Prepare: two pros with payouts enabled
    const crew = await verifiedCrew([
      { worker: { stripeAccountId: await onboardedAccount('ana@example.com'), payoutsEnabled: true } },
      { worker: { stripeAccountId: await onboardedAccount('ben@example.com'), payoutsEnabled: true }, materialsCents: 10_00 },
    ]);
    const session = await paidBill(crew);
    const event = completed(session);

    // Act: the event twice, then another delivery of the same payment racing a third
    const first = await invoke(handler, event);
    const duplicate = await invoke(handler, event);
    const raced = await Promise.all([invoke(handler, completed(session)), invoke(handler, signedStripeEvent('checkout.session.async_payment_succeeded', session as unknown as Record<string, unknown>))]);

    // Assess
    expect([first.status, duplicate.status, ...raced.map((r) => r.status)]).toEqual([200, 200, 200, 200]);
    expect(duplicate.body).toEqual({ received: true, duplicate: true });
    const intent = await testStripe.paymentIntents.retrieve(session.payment_intent as string);
    // One charge the platform keeps: no destination, grouped by the request for the transfers.
    expect(intent).toMatchObject({ amount: 12500 + 13500 + 808, application_fee_amount: null, transfer_data: null, transfer_group: crew.lead.id });
    const paid = await lines(crew);
    for (const [i, line] of paid.entries()) {
      expect(line).toMatchObject({ paymentStatus: 'paid', stripeSessionId: session.id, stripePaymentIntentId: intent.id, payoutStatus: 'transferred', payoutAccountId: crew.workers[i]!.stripeAccountId });
      const transfer = await testStripe.transfers.retrieve(line.transferId!);
      expect(transfer).toMatchObject({ amount: line.workerShare, destination: crew.workers[i]!.stripeAccountId, source_transaction: intent.latest_charge, transfer_group: crew.lead.id });
    }
    expect(paid.map((l) => l.workerShare)).toEqual([11250, 12150]);
    // The customer is told once, of the whole bill; each pro of their own share.
    const told = (await notificationsRepo.latest('customer', crew.customerId)).filter((n) => n.title === 'Payment complete');
    expect(told.map((n) => n.message)).toEqual(['Thank you: your payment of $268.08 went through. How did your pros do? Rate them.']);
    for (const [i, worker] of crew.workers.entries()) {
      const news = (await notificationsRepo.latest('worker', worker!.id)).filter((n) => n.title === 'Payment received');
      expect(news.map((n) => n.message)).toEqual([`The customer paid the crew's bill; your share is $${(paid[i]!.workerShare / 100).toFixed(2)}.`]);
    }
    for (const job of crew.jobs) expect((await jobsRepo.findById(job.id))?.state).toBe('paid');
  });

  it('holds the share of a pro who has not set up payouts and transfers the other', async () => {
    // Prepare
    const crew = await verifiedCrew([{ worker: { stripeAccountId: await onboardedAccount(), payoutsEnabled: true } }, {}]);
    const session = await paidBill(crew);

    // Act
    await invoke(handler, completed(session));

    // Assess
    const [onboarded, notYet] = await lines(crew);
    expect(onboarded).toMatchObject({ paymentStatus: 'paid', payoutStatus: 'transferred', transferId: expect.any(String) });
    expect(notYet).toMatchObject({ paymentStatus: 'paid', payoutStatus: 'held', transferId: null });
  });

  it("tells the payment page the bill is paid, with the bill's total, for the request's session only", async () => {
    // Prepare
    const crew = await verifiedCrew([{}, {}]);
    const session = await paidBill(crew);
    await invoke(handler, completed(session));
    const confirm = (sessionId: string) => invoke(confirmPayment, { ...withPath(sampleEvent('get-payment-confirmation'), { id: crew.lead.id }), queryStringParameters: { session_id: sessionId } });

    // Act
    const [ours, forged] = await Promise.all([confirm(session.id), confirm('cs_test_forged')]);

    // Assess
    expect(ours.body).toMatchObject({ jobId: crew.lead.id, paid: true, totalAmount: session.amount_total, platformFee: 2500, workerShare: 22500, paidAt: expect.any(String) });
    expect(ours.body.workerName).toBe(crew.workers.map((w) => w!.fullName).join(', '));
    expect(forged.body).toMatchObject({ paid: false, paidAt: null });
  });

  it('follows an async payment of the bill: every line processing, then failed and payable again by a new session, and forgets that one when it expires', async () => {
    // Prepare
    const crew = await verifiedCrew([{}, {}]);
    const res = await invoke(checkout, await asCustomer(withPath(sampleEvent('create-bill-checkout'), { id: crew.lead.id }), crew.customerId));
    await pressHostedButton(res.body.url, 'pay');
    const open = await testStripe.checkout.sessions.retrieve(res.body.sessionId);
    // A bank debit: the session completes on Stripe's page, the money settles (or not) later.
    const bank = { ...open, status: 'complete', payment_status: 'unpaid' };

    // Act / Assess
    await invoke(handler, completed(bank));
    expect((await lines(crew)).map((l) => l.paymentStatus)).toEqual(['processing', 'processing']);
    await invoke(handler, signedStripeEvent('checkout.session.async_payment_failed', bank as unknown as Record<string, unknown>));
    expect((await lines(crew)).map((l) => l.paymentStatus)).toEqual(['failed', 'failed']);
    for (const job of crew.jobs) expect(await jobsRepo.findById(job.id)).toMatchObject({ state: 'verified', paymentFailedAt: expect.any(String) });
    const again = await invoke(checkout, await asCustomer(withPath(sampleEvent('create-bill-checkout'), { id: crew.lead.id }), crew.customerId));
    expect(again.status).toBe(200);
    expect(again.body.sessionId).not.toBe(open.id);
    expect((await lines(crew)).map((l) => l.stripeSessionId)).toEqual([again.body.sessionId, again.body.sessionId]);
    await invoke(handler, signedStripeEvent('checkout.session.expired', { ...open, id: again.body.sessionId, status: 'expired' } as unknown as Record<string, unknown>));
    expect((await lines(crew)).map((l) => l.stripeSessionId)).toEqual([null, null]);
  });
});
