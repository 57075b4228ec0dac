import type Stripe from 'stripe';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startFaultProxy } from '../../infra/testing/fault-proxy';
import { handler } from './handle-stripe-connect-webhook';
import { invoicesRepo } from './data/invoices';
import { payoutAccountsRepo } from './data/payout-accounts';
import { workersRepo } from '../workers/data/workers';
import { newId } from '../common/ids';
import { settlePaid } from './payments';
import { invoke, sampleEvent } from '../testing/events';
import { invoicedJob } from '../testing/money';
import { onboardedAccount, signedStripeEvent, stripeKeys, testStripe, withOwnStripeSecret } from '../testing/stripe';

const sample = sampleEvent('handle-stripe-connect-webhook');
const secretsProxy = await startFaultProxy(process.env.SECRETS_MANAGER_ENDPOINT!);
afterEach(() => secretsProxy.set(undefined));
afterAll(() => secretsProxy.close());

/** A paid invoice whose worker's share is held, the worker's Express account onboarded at Stripe but not yet known to be. */
async function heldShareOfOnboardedWorker() {
  const { worker, invoice } = await invoicedJob({ verified: true });
  await settlePaid({ id: `cs_test_${invoice.id}`, object: 'checkout.session', payment_status: 'paid', payment_intent: null, metadata: { invoiceId: invoice.id, jobId: invoice.jobId } } as unknown as Stripe.Checkout.Session);
  const accountId = await onboardedAccount(worker.email);
  await payoutAccountsRepo.attach(worker.id, accountId, new Date().toISOString());
  return { worker, invoice, accountId };
}

const accountUpdated = (accountId: string, options: { id?: string; secret?: string } = {}) =>
  signedStripeEvent('account.updated', { id: accountId, object: 'account', payouts_enabled: true, charges_enabled: true }, { ...options, connect: true });

describe('POST /api/stripe/connect-webhook', () => {
  it("records an onboarded worker's payouts as enabled on account.updated and sends their held share", async () => {
    // Prepare
    const { worker, invoice, accountId } = await heldShareOfOnboardedWorker();

    // Act
    const res = await invoke(handler, accountUpdated(accountId));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    expect((await workersRepo.findById(worker.id))?.payoutsEnabled).toBe(true);
    const stored = await invoicesRepo.findById(invoice.id);
    expect(stored).toMatchObject({ payoutStatus: 'transferred', payoutAccountId: accountId, transferId: expect.stringMatching(/^tr_/) });
    expect(await testStripe.transfers.retrieve(stored!.transferId!)).toMatchObject({ amount: invoice.workerShare, destination: accountId });
  });

  it('leaves one result when the event is delivered again, or twice at once', async () => {
    // Prepare
    const { invoice, accountId } = await heldShareOfOnboardedWorker();
    const event = accountUpdated(accountId, { id: `evt_${newId()}` });

    // Act
    const racing = await Promise.all([invoke(handler, event), invoke(handler, event)]);
    const first = await invoicesRepo.findById(invoice.id);
    const again = await invoke(handler, event);

    // Assess
    expect(racing.map((r) => r.status)).toEqual([200, 200]);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    expect(first).toMatchObject({ payoutStatus: 'transferred', transferId: expect.stringMatching(/^tr_/) });
    expect(await invoicesRepo.findById(invoice.id)).toEqual(first);
  });

  it("refuses with 400 an event signed with the platform endpoint's secret, or with none, and changes nothing", async () => {
    // Prepare
    const { worker, invoice, accountId } = await heldShareOfOnboardedWorker();
    const platformSigned = accountUpdated(accountId, { secret: stripeKeys.webhookSecret });
    const forged = accountUpdated(accountId, { secret: 'whsec_not_ours' });

    // Act
    const results = [
      await invoke(handler, platformSigned),
      await invoke(handler, forged),
      await invoke(handler, { ...sample, body: forged.body, headers: { ...sample.headers, 'stripe-signature': undefined as unknown as string } }),
    ];

    // Assess
    expect(results.map((r) => r.status)).toEqual([400, 400, 400]);
    expect(results[0]!.body).toEqual({ error: 'BadRequestError', message: "The webhook signature does not match the Connect endpoint's signing secret." });
    expect(results[2]!.body.message).toBe('Missing Stripe-Signature header.');
    expect((await workersRepo.findById(worker.id))?.payoutsEnabled).toBe(false);
    expect(await invoicesRepo.findById(invoice.id)).toMatchObject({ payoutStatus: 'held' });
  });

  it('acknowledges an account that is no worker of ours, and events it does not act on, changing nothing', async () => {
    const unknown = await invoke(handler, accountUpdated(`acct_${newId()}`));
    const other = await invoke(handler, signedStripeEvent('capability.updated', { id: 'card_payments', object: 'capability', account: 'acct_x' }, { connect: true }));

    expect(unknown.status).toBe(200);
    expect(other.status).toBe(200);
  });

  it('verifies with a Connect signing secret rolled since the function read it, without a deploy', async () => {
    // Prepare: the operator rolled the Connect endpoint's secret; this container still holds the old one.
    const { handler: running, rotate } = await withOwnStripeSecret(async () => (await import('./handle-stripe-connect-webhook')).handler);
    const { worker, accountId } = await heldShareOfOnboardedWorker();
    expect((await invoke(running, accountUpdated(`acct_${newId()}`))).status).toBe(200);
    await rotate({ connectWebhookSecret: 'whsec_rolled_connect_secret' });

    // Act
    const res = await invoke(running, accountUpdated(accountId, { secret: 'whsec_rolled_connect_secret' }));

    // Assess
    expect(res.status).toBe(200);
    expect((await workersRepo.findById(worker.id))?.payoutsEnabled).toBe(true);
  });

  it('reads the secret again at most once in 30 s however many forged events arrive', async () => {
    // Prepare
    const { handler: running } = await withOwnStripeSecret(async () => (await import('./handle-stripe-connect-webhook')).handler, secretsProxy.url);
    const { webhookClock, WEBHOOK_FRESH_READ_INTERVAL_MS } = await import('./stripe');
    let reads = 0;
    // Only the Stripe secret's reads (the origin check reads its own secret too).
    secretsProxy.set({ kind: 'hang' }, (request) => {
      if (request.body.includes('marketplace/test/stripe-')) reads += 1;
      return false;
    });
    const forged = () => invoke(running, accountUpdated(`acct_${newId()}`, { secret: 'whsec_not_ours' }));
    const start = Date.now();
    webhookClock.now = () => start;

    // Act
    const burst = [await forged(), await forged(), await forged()];
    const readsInBurst = reads;
    webhookClock.now = () => start + WEBHOOK_FRESH_READ_INTERVAL_MS;
    const later = await forged();

    // Assess: the first read fills the cache, one fresh read for the burst, one more after the interval.
    expect([...burst, later].map((r) => r.status)).toEqual([400, 400, 400, 400]);
    expect(readsInBurst).toBe(2);
    expect(reads).toBe(3);
  });
});
