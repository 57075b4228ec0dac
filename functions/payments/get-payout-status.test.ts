import { describe, expect, it } from 'vitest';
import { handler } from './get-payout-status';
import { handler as connectWebhook } from './handle-stripe-connect-webhook';
import { invoicesRepo } from './data/invoices';
import { payoutAccountsRepo } from './data/payout-accounts';
import { workersRepo } from '../workers/data/workers';
import { settlePaid } from './payments';
import { invoke, sampleEvent } from '../testing/events';
import { invoicedJob } from '../testing/money';
import { pressHostedButton, signedStripeEvent, testStripe } from '../testing/stripe';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';
import Stripe from 'stripe';

const sample = sampleEvent('get-payout-status');

async function status(workerId: string) {
  return invoke(handler, withBearer(sample, await workerToken(workerId)));
}

/** The customer pays the invoice (as the webhook would record it). */
async function customerPays(invoice: { id: string; jobId: string }) {
  await settlePaid({ id: `cs_test_${invoice.id}`, object: 'checkout.session', payment_status: 'paid', payment_intent: null, metadata: { invoiceId: invoice.id, jobId: invoice.jobId } } as unknown as Stripe.Checkout.Session);
}

describe('GET /api/workers/payouts', () => {
  it('says not started for a worker without an account', async () => {
    const worker = await createTestWorker();

    const res = await status(worker.id);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'not_started', accountId: null, heldCents: 0, heldCount: 0, transferredCents: 0, feePercent: 10 });
  });

  it("holds a paid share until the worker finishes onboarding, then transfers it once", async () => {
    // Prepare: paid before the worker set up payouts
    const { worker, invoice } = await invoicedJob({ verified: true });
    await customerPays(invoice);
    const account = await testStripe.accounts.create({ type: 'express', email: worker.email });
    await payoutAccountsRepo.attach(worker.id, account.id, new Date().toISOString());

    // Act / Assess: onboarding not finished, the share is held
    const before = await status(worker.id);
    expect(before.body).toMatchObject({ status: 'pending', accountId: account.id, heldCents: invoice.workerShare, heldCount: 1 });

    // Act: the worker completes Stripe's onboarding and looks again
    const link = await testStripe.accountLinks.create({ account: account.id, type: 'account_onboarding', refresh_url: 'http://localhost/r', return_url: 'http://localhost/x' });
    await pressHostedButton(link.url, 'complete');
    const after = await status(worker.id);
    const again = await status(worker.id);

    // Assess
    expect(after.body).toMatchObject({ status: 'enabled', heldCents: 0, heldCount: 0, transferredCents: invoice.workerShare });
    expect(again.body).toEqual(after.body);
    const stored = await invoicesRepo.findById(invoice.id);
    expect(stored).toMatchObject({ payoutStatus: 'transferred', payoutAccountId: account.id, transferId: expect.stringMatching(/^tr_/) });
    const transfer = await testStripe.transfers.retrieve(stored!.transferId!);
    expect(transfer).toMatchObject({ amount: invoice.workerShare, destination: account.id, transfer_group: invoice.id });
    expect((await workersRepo.findById(worker.id))?.payoutsEnabled).toBe(true);
  });

  it('releases held shares when Stripe says so by account.updated, whatever the event itself claims', async () => {
    // Prepare
    const { worker, invoice } = await invoicedJob({ verified: true });
    await customerPays(invoice);
    const account = await testStripe.accounts.create({ type: 'express', email: worker.email });
    await payoutAccountsRepo.attach(worker.id, account.id, new Date().toISOString());
    const link = await testStripe.accountLinks.create({ account: account.id, type: 'account_onboarding', refresh_url: 'http://localhost/r', return_url: 'http://localhost/x' });
    await pressHostedButton(link.url, 'complete');
    const event = signedStripeEvent('account.updated', { id: account.id, object: 'account', payouts_enabled: false }, { id: `evt_${invoice.id}`, connect: true });

    // Act
    const res = await invoke(connectWebhook, event);

    // Assess
    expect(res.status).toBe(200);
    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ payoutStatus: 'transferred' });
  });
});
