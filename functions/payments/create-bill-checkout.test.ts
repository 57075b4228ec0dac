import { describe, expect, it } from 'vitest';
import { handler } from './create-bill-checkout';
import { handler as payInvoice } from './create-checkout-session';
import { invoicesRepo } from './data/invoices';
import { newId } from '../common/ids';
import { invoicedCrew, verifiedCrew } from '../testing/crew-bills';
import { invoke, sampleEvent, withBody, withPath } from '../testing/events';
import { asCustomer } from '../testing/money';
import { onboardedAccount, testStripe } from '../testing/stripe';

const sample = sampleEvent('create-bill-checkout');
const checkout = async (id: string, customerId: string) => invoke(handler, await asCustomer(withPath(sample, { id }), customerId));

describe('POST /api/requests/{id}/bill/checkout', () => {
  it("opens ONE Checkout session for the crew's bill: a line per pro, a line for the card fee, the platform keeping the charge for the transfers", async () => {
    // Prepare: two pros (one with payouts enabled: still no destination, the one charge is split by transfers)
    const accountId = await onboardedAccount();
    const crew = await verifiedCrew([{ worker: { fullName: 'Ana Lead', stripeAccountId: accountId, payoutsEnabled: true } }, { worker: { fullName: 'Ben Second' }, laborHours: 2.5 }]);

    // Act
    const res = await checkout(crew.lead.id, crew.customerId);

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, url: expect.stringMatching(/\/checkout\/cs_test_/), sessionId: expect.stringMatching(/^cs_test_/) });
    const session = await testStripe.checkout.sessions.retrieve(res.body.sessionId);
    const subtotal = 12500 + 15000; // (2 h or 2.5 h x $50) + $25 rush each
    const cardFee = 853; // ceil((275.00 + 0.30) / 0.971) to the cent = 283.53, less the 275.00: one fixed 30c for the one charge
    expect(session).toMatchObject({
      status: 'open',
      amount_total: subtotal + cardFee,
      client_reference_id: crew.lead.id,
      customer_email: 'crew@example.com',
      metadata: { billRequestId: crew.lead.id },
      success_url: `http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}&job=${crew.lead.id}`,
      cancel_url: `http://localhost:3000/payment-cancelled?job=${crew.lead.id}`,
    });
    const items = await testStripe.checkout.sessions.listLineItems(session.id);
    expect(items.data.map((i) => [i.description, i.amount_total])).toEqual([
      ['Plumbing — 2.0 h by Ana Lead', 12500],
      ['Plumbing — 2.5 h by Ben Second', 15000],
      ['Card processing fee', cardFee],
    ]);
    for (const invoice of crew.invoices) expect((await invoicesRepo.findById(invoice!.id))?.stripeSessionId).toBe(session.id);
  });

  it('hands back the same open session to two presses at once and to a later one', async () => {
    // Prepare
    const crew = await verifiedCrew([{}, {}]);

    // Act
    const together = await Promise.all([checkout(crew.lead.id, crew.customerId), checkout(crew.lead.id, crew.customerId)]);
    const later = await checkout(crew.lead.id, crew.customerId);

    // Assess
    expect(new Set([...together, later].map((r) => r.body.sessionId)).size).toBe(1);
    expect((await invoicesRepo.findById(crew.invoices[0]!.id))?.checkoutAttempts).toBe(1);
  });

  it('starts a fresh session once the previous one expired unpaid', async () => {
    const crew = await verifiedCrew([{}, {}]);
    const first = await checkout(crew.lead.id, crew.customerId);
    await testStripe.checkout.sessions.expire(first.body.sessionId);

    const second = await checkout(crew.lead.id, crew.customerId);

    expect(second.status).toBe(200);
    expect(second.body.sessionId).not.toBe(first.body.sessionId);
  });

  it('refuses a bill before it is verified, while a pro has still to invoice, once paid, and another customer\'s, opening no session', async () => {
    // Prepare
    const unverified = await invoicedCrew([{}, {}]);
    const awaiting = await invoicedCrew([{}, { uninvoiced: true }]);
    const paid = await verifiedCrew([{}, {}]);
    for (const line of paid.invoices) await invoicesRepo.markPaid(line!.id, { sessionId: 'cs_x', paymentIntentId: null, now: new Date().toISOString(), payoutStatus: 'held', payoutAccountId: null });

    // Act
    const answers = await Promise.all([
      checkout(unverified.lead.id, unverified.customerId),
      checkout(awaiting.lead.id, awaiting.customerId),
      checkout(paid.lead.id, paid.customerId),
      checkout(paid.lead.id, newId()),
    ]);

    // Assess
    expect(answers.map((r) => r.status)).toEqual([409, 409, 409, 404]);
    expect(answers.slice(0, 3).map((r) => r.body.message)).toEqual([
      'Verify the bill before paying.',
      'Some of your pros have not sent their invoices yet. You can pay the bill once they have.',
      'This bill is already paid.',
    ]);
    expect((await invoicesRepo.findById(unverified.invoices[0]!.id))?.stripeSessionId).toBeNull();
  });

  it('never charges one line of a bill on its own', async () => {
    const crew = await verifiedCrew([{}, {}]);
    const line = crew.invoices[1]!;

    const res = await invoke(payInvoice, await asCustomer(withBody(sampleEvent('create-checkout-session'), { invoiceId: line.id }), crew.customerId));

    expect(res.status).toBe(409);
    expect(res.body.message).toBe("This invoice is part of your crew's bill. Pay the bill on the request's page.");
    expect((await invoicesRepo.findById(line.id))?.stripeSessionId).toBeNull();
  });
});
