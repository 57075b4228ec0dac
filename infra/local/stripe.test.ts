import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalStripe, type LocalStripe, type WebhookEndpoint } from './stripe';

interface Delivery {
  payload: string;
  signature: string;
  endpoint: WebhookEndpoint;
}

const dir = mkdtempSync(path.join(tmpdir(), 'local-stripe-'));
const running: LocalStripe[] = [];
let local: LocalStripe;
let stripe: Stripe;
const delivered: Delivery[] = [];

/** The SDK as functions/payments/stripe.ts makes it, pointed at the local endpoint. */
function sdk(endpoint: string, key: string): Stripe {
  return new Stripe(key, { host: '127.0.0.1', port: Number(new URL(endpoint).port), protocol: 'http', maxNetworkRetries: 0 });
}

async function start(dataDir: string, deliver: (d: Delivery) => Promise<void> = async (d) => void delivered.push(d), retryDelaysMs?: number[]) {
  const started = await startLocalStripe(dataDir, { deliver: (payload, signature, endpoint) => deliver({ payload, signature, endpoint }), retryDelaysMs });
  running.push(started);
  return started;
}

const checkoutParams = (overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}): Stripe.Checkout.SessionCreateParams => ({
  mode: 'payment',
  line_items: [
    {
      quantity: 1,
      price_data: { currency: 'usd', unit_amount: 12345, product_data: { name: 'Deep clean', description: 'Invoice INV-7' } },
    },
  ],
  customer_email: 'ravi@example.com',
  client_reference_id: 'inv_7',
  metadata: { invoiceId: 'inv_7' },
  payment_intent_data: { transfer_group: 'inv_7', metadata: { invoiceId: 'inv_7' } },
  success_url: 'http://localhost:3000/pay/done?session_id={CHECKOUT_SESSION_ID}',
  cancel_url: 'http://localhost:3000/pay/cancelled',
  ...overrides,
});

/** A form POST from the hosted page, as the browser sends it (redirects not followed). */
const post = (url: string) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });

/** A platform event, checked as the platform endpoint checks it. */
const verify = (d: Delivery) => stripe.webhooks.constructEvent(d.payload, d.signature, local.webhookSecret);

beforeAll(async () => {
  local = await start(path.join(dir, 'main'));
  stripe = sdk(local.endpoint, local.secretKey);
});

afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('local Stripe: Checkout Sessions', () => {
  it('creates one session for a repeated idempotency key with the same parameters', async () => {
    // Prepare
    const key = `checkout-${Date.now()}`;

    // Act
    const first = await stripe.checkout.sessions.create(checkoutParams(), { idempotencyKey: key });
    const second = await stripe.checkout.sessions.create(checkoutParams(), { idempotencyKey: key });

    // Assess
    expect(second.id).toBe(first.id);
    expect(first).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 12345,
      amount_subtotal: 12345,
      currency: 'usd',
      client_reference_id: 'inv_7',
      customer_email: 'ravi@example.com',
      metadata: { invoiceId: 'inv_7' },
      payment_intent: null,
      livemode: false,
      url: `${local.endpoint}/checkout/${first.id}`,
    });
    expect(first.id).toMatch(/^cs_test_[0-9A-Za-z]+$/);
    expect(first.expires_at - first.created).toBe(24 * 60 * 60);
  });

  it('refuses a reused idempotency key with different parameters', async () => {
    // Prepare
    const key = `checkout-differs-${Date.now()}`;
    await stripe.checkout.sessions.create(checkoutParams(), { idempotencyKey: key });

    // Act
    const refused = stripe.checkout.sessions.create(checkoutParams({ client_reference_id: 'inv_8' }), { idempotencyKey: key });

    // Assess
    await expect(refused).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    await expect(refused).rejects.toMatchObject({ type: 'StripeIdempotencyError', statusCode: 400 });
  });

  it('refuses what Stripe refuses, naming the parameter', async () => {
    // Act
    const noSuccessUrl = stripe.checkout.sessions.create(checkoutParams({ success_url: undefined }));
    const noMode = stripe.checkout.sessions.create(checkoutParams({ mode: undefined }));
    const noLineItems = stripe.checkout.sessions.create(checkoutParams({ line_items: undefined }));
    const zeroAmount = stripe.checkout.sessions.create(
      checkoutParams({ line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 0, product_data: { name: 'Free' } } }] }),
    );
    const feeWithoutDestination = stripe.checkout.sessions.create(checkoutParams({ payment_intent_data: { application_fee_amount: 100 } }));

    // Assess
    await expect(noSuccessUrl).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, param: 'success_url' });
    await expect(noMode).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'mode' });
    await expect(noLineItems).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'line_items' });
    await expect(zeroAmount).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      param: 'line_items[0][price_data][unit_amount]',
    });
    await expect(feeWithoutDestination).rejects.toMatchObject({ param: 'payment_intent_data[application_fee_amount]' });
  });

  it('retrieves a session and expires it once, as only an open session can be expired', async () => {
    // Prepare
    const created = await stripe.checkout.sessions.create(checkoutParams());

    // Act
    const retrieved = await stripe.checkout.sessions.retrieve(created.id);
    const expired = await stripe.checkout.sessions.expire(created.id);
    const again = stripe.checkout.sessions.expire(created.id);
    const missing = stripe.checkout.sessions.retrieve('cs_test_nope');

    // Assess
    expect(retrieved).toMatchObject({ id: created.id, status: 'open', amount_total: 12345 });
    expect(expired).toMatchObject({ id: created.id, status: 'expired', url: null });
    await expect(again).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400 });
    await expect(missing).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 404, code: 'resource_missing' });
    const page = await fetch(`${local.endpoint}/checkout/${created.id}`).then((r) => r.text());
    expect(page).toContain('expired');
    expect(page).not.toContain('<button');
  });

  it('shows the hosted page with the product, the amount and Pay and Cancel buttons', async () => {
    // Prepare
    const session = await stripe.checkout.sessions.create(checkoutParams());

    // Act
    const response = await fetch(session.url!);
    const html = await response.text();

    // Assess
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('<h1>');
    expect(html).toContain('Deep clean');
    expect(html).toContain('$123.45');
    expect(html).toContain('Test mode (local Stripe)');
    expect(html).toContain(`<form method="post" action="/checkout/${session.id}/pay"><button type="submit" class="primary">Pay $123.45</button>`);
    expect(html).toContain(`<form method="post" action="/checkout/${session.id}/cancel"><button type="submit">Cancel</button>`);
  });

  it('pays on the hosted page: delivers a signed checkout.session.completed, then redirects to success_url with the id', async () => {
    // Prepare
    const session = await stripe.checkout.sessions.create(checkoutParams());
    const before = delivered.length;

    // Act
    const response = await post(`${local.endpoint}/checkout/${session.id}/pay`);

    // Assess
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`http://localhost:3000/pay/done?session_id=${session.id}`);
    expect(delivered).toHaveLength(before + 1);
    expect(delivered.at(-1)!.endpoint).toBe('platform');
    expect(() => stripe.webhooks.constructEvent(delivered.at(-1)!.payload, delivered.at(-1)!.signature, local.connectWebhookSecret)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const event = verify(delivered.at(-1)!);
    expect(event).toMatchObject({
      object: 'event',
      type: 'checkout.session.completed',
      api_version: Stripe.API_VERSION,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    });
    expect(event.id).toMatch(/^evt_/);
    const paid = event.data.object as Stripe.Checkout.Session;
    expect(paid).toMatchObject({ id: session.id, status: 'complete', payment_status: 'paid', client_reference_id: 'inv_7' });
    expect(paid.payment_intent).toMatch(/^pi_/);

    const retrieved = await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] });
    expect(retrieved.status).toBe('complete');
    const intent = retrieved.payment_intent as Stripe.PaymentIntent;
    expect(intent).toMatchObject({ id: paid.payment_intent, status: 'succeeded', amount: 12345, transfer_group: 'inv_7', metadata: { invoiceId: 'inv_7' } });
    const again = await stripe.paymentIntents.retrieve(intent.id);
    expect(again.latest_charge).toMatch(/^ch_/);
  });

  it('delivers nothing new when a paid session is paid again (double click, back button)', async () => {
    // Prepare
    const session = await stripe.checkout.sessions.create(checkoutParams());
    await post(`${local.endpoint}/checkout/${session.id}/pay`);
    const before = delivered.length;

    // Act
    const [second, third] = await Promise.all([
      post(`${local.endpoint}/checkout/${session.id}/pay`),
      post(`${local.endpoint}/checkout/${session.id}/pay`),
    ]);
    const page = await fetch(`${local.endpoint}/checkout/${session.id}`).then((r) => r.text());

    // Assess
    expect(second.status).toBe(303);
    expect(third.status).toBe(303);
    expect(second.headers.get('location')).toBe(`http://localhost:3000/pay/done?session_id=${session.id}`);
    expect(delivered).toHaveLength(before);
    expect(page).toContain('Payment complete');
    expect(page).not.toContain('<button');
  });

  it('sends both clicks of a double click to success_url after one delivery', async () => {
    // Prepare
    const session = await stripe.checkout.sessions.create(checkoutParams());
    const before = delivered.length;

    // Act
    const responses = await Promise.all([1, 2, 3].map(() => post(`${local.endpoint}/checkout/${session.id}/pay`)));

    // Assess
    expect(responses.map((r) => r.status)).toEqual([303, 303, 303]);
    expect(delivered).toHaveLength(before + 1);
  });

  it('cancels to cancel_url and leaves the session open', async () => {
    // Prepare
    const session = await stripe.checkout.sessions.create(checkoutParams());

    // Act
    const response = await post(`${local.endpoint}/checkout/${session.id}/cancel`);

    // Assess
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('http://localhost:3000/pay/cancelled');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
  });

  it('lists the events it made at /_local/events', async () => {
    // Act
    const list = (await fetch(`${local.endpoint}/_local/events?type=checkout.session.completed`).then((r) => r.json())) as {
      data: { id: string; type: string; delivered: boolean; event: Stripe.Event }[];
    };

    // Assess
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.data.every((e) => e.type === 'checkout.session.completed' && e.delivered && e.event.id === e.id)).toBe(true);
  });
});

describe('local Stripe: Connect', () => {
  it('onboards an Express account through its hosted link, then accepts transfers to it', async () => {
    // Prepare
    const account = await stripe.accounts.create({
      type: 'express',
      email: 'sam@example.com',
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
      metadata: { workerId: 'w_1' },
    });
    const transfer = { amount: 10000, currency: 'usd', destination: account.id, transfer_group: 'inv_9', metadata: { invoiceId: 'inv_9' } };
    const refused = await stripe.transfers.create(transfer).catch((e: unknown) => e);
    const link = await stripe.accountLinks.create({
      account: account.id,
      refresh_url: 'http://localhost:3000/worker/payouts?refresh=1',
      return_url: 'http://localhost:3000/worker/payouts?done=1',
      type: 'account_onboarding',
    });
    const before = delivered.length;

    // Act
    const page = await fetch(link.url).then((r) => r.text());
    const completed = await post(link.url);
    const reused = await fetch(link.url, { redirect: 'manual' });
    const accepted = await stripe.transfers.create(transfer);

    // Assess
    expect(account).toMatchObject({
      object: 'account',
      type: 'express',
      email: 'sam@example.com',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      metadata: { workerId: 'w_1' },
    });
    expect(account.id).toMatch(/^acct_/);
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({ param: 'destination', code: 'insufficient_capabilities_for_transfer' });
    expect(link).toMatchObject({ object: 'account_link' });
    expect(link.url).toMatch(new RegExp(`^${local.endpoint}/connect/onboarding/`));
    expect(link.expires_at).toBeGreaterThan(link.created);
    expect(page).toContain('Set up payouts (local Stripe)');
    expect(page).toContain('<button type="submit" class="primary">Complete onboarding</button>');
    expect(completed.status).toBe(303);
    expect(completed.headers.get('location')).toBe('http://localhost:3000/worker/payouts?done=1');
    expect(reused.status).toBe(303);
    expect(reused.headers.get('location')).toBe('http://localhost:3000/worker/payouts?refresh=1');
    expect(delivered).toHaveLength(before + 1);
    // An event about a connected account goes to the Connect endpoint, signed with its own secret.
    const delivery = delivered.at(-1)!;
    expect(delivery.endpoint).toBe('connect');
    expect(() => verify(delivery)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    const event = stripe.webhooks.constructEvent(delivery.payload, delivery.signature, local.connectWebhookSecret);
    expect(event).toMatchObject({ type: 'account.updated', account: account.id });
    expect(event.data.object).toMatchObject({ id: account.id, charges_enabled: true, payouts_enabled: true, details_submitted: true });
    expect(await stripe.accounts.retrieve(account.id)).toMatchObject({ payouts_enabled: true, capabilities: { transfers: 'active' } });
    expect(accepted).toMatchObject({ object: 'transfer', amount: 10000, destination: account.id, transfer_group: 'inv_9', metadata: { invoiceId: 'inv_9' } });
    expect(accepted.id).toMatch(/^tr_/);
  });

  it('takes a destination charge only for an onboarded account, transferring the amount less the fee when paid', async () => {
    // Prepare
    const account = await stripe.accounts.create({ type: 'express', capabilities: { transfers: { requested: true } } });
    const params = checkoutParams({
      payment_intent_data: { application_fee_amount: 1235, transfer_data: { destination: account.id }, transfer_group: 'inv_10' },
    });
    const early = await stripe.checkout.sessions.create(params).catch((e: unknown) => e);
    const link = await stripe.accountLinks.create({
      account: account.id,
      refresh_url: 'http://localhost:3000/r',
      return_url: 'http://localhost:3000/d',
      type: 'account_onboarding',
    });
    await post(link.url);
    const session = await stripe.checkout.sessions.create(params);

    // Act
    await post(`${local.endpoint}/checkout/${session.id}/pay`);

    // Assess
    expect(early).toMatchObject({ type: 'StripeInvalidRequestError', code: 'insufficient_capabilities_for_transfer' });
    const intent = await stripe.paymentIntents.retrieve((await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string, {
      expand: ['latest_charge'],
    });
    expect(intent).toMatchObject({ application_fee_amount: 1235, transfer_data: { destination: account.id }, transfer_group: 'inv_10' });
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({ object: 'charge', amount: 12345, paid: true, payment_intent: intent.id });
    const transfer = await stripe.transfers.retrieve(charge.transfer as string);
    expect(transfer).toMatchObject({ amount: 12345 - 1235, destination: account.id, source_transaction: charge.id });
  });

  it('refuses a transfer to an account that does not exist', async () => {
    // Act
    const refused = stripe.transfers.create({ amount: 100, currency: 'usd', destination: 'acct_nope' });

    // Assess
    await expect(refused).rejects.toMatchObject({ type: 'StripeInvalidRequestError', param: 'destination' });
  });
});

describe('local Stripe: keys, deliveries and restarts', () => {
  it('refuses a wrong API key as Stripe does', async () => {
    // Prepare
    const wrong = sdk(local.endpoint, 'sk_test_not_the_local_key_1234');

    // Act
    const refused = wrong.checkout.sessions.create(checkoutParams());

    // Assess
    await expect(refused).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    await expect(refused).rejects.toMatchObject({ statusCode: 401 });
  });

  it('retries a failed delivery, then redirects; the secret is never logged', async () => {
    // Prepare
    const attempts: Delivery[] = [];
    const flaky = await start(path.join(dir, 'flaky'), async (d) => {
      attempts.push(d);
      if (attempts.length < 3) throw new Error('the webhook answered 500');
    }, [10, 10, 10]);
    const client = sdk(flaky.endpoint, flaky.secretKey);
    const session = await client.checkout.sessions.create(checkoutParams());
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});

    // Act
    const response = await post(`${flaky.endpoint}/checkout/${session.id}/pay`);
    const logs = logged.mock.calls.flat().join('\n');
    logged.mockRestore();

    // Assess
    expect(response.status).toBe(303);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => JSON.parse(a.payload).id as string)).size).toBe(1);
    expect(logs).toContain('attempt 1 of 4');
    expect(logs).not.toContain(flaky.webhookSecret);
    expect(logs).not.toContain(flaky.secretKey);
  });

  it('keeps its keys, sessions and accounts across a restart on the same data dir', async () => {
    // Prepare
    const dataDir = path.join(dir, 'restart');
    const first = await start(dataDir);
    const firstClient = sdk(first.endpoint, first.secretKey);
    const session = await firstClient.checkout.sessions.create(checkoutParams(), { idempotencyKey: 'restart-key' });
    const account = await firstClient.accounts.create({ type: 'express', email: 'kim@example.com' });
    await first.close();

    // Act
    const second = await start(dataDir);
    const client = sdk(second.endpoint, second.secretKey);
    const retrieved = await client.checkout.sessions.retrieve(session.id);
    const replayed = await client.checkout.sessions.create(checkoutParams(), { idempotencyKey: 'restart-key' });
    const found = await client.accounts.retrieve(account.id);

    // Assess
    expect(second.secretKey).toBe(first.secretKey);
    expect(second.webhookSecret).toBe(first.webhookSecret);
    expect(second.connectWebhookSecret).toBe(first.connectWebhookSecret);
    expect(second.secretKey).toMatch(/^sk_test_local_/);
    expect(second.webhookSecret).toMatch(/^whsec_local_/);
    expect(second.connectWebhookSecret).toMatch(/^whsec_local_connect_/);
    expect(second.connectWebhookSecret).not.toBe(second.webhookSecret);
    expect(retrieved).toMatchObject({ id: session.id, status: 'open', url: `${second.endpoint}/checkout/${session.id}` });
    expect(replayed.id).toBe(session.id);
    expect(found).toMatchObject({ id: account.id, email: 'kim@example.com' });
    expect(JSON.parse(readFileSync(path.join(dataDir, 'state.json'), 'utf8'))).toHaveProperty('sessions');
  });

  it('adds a Connect signing secret to keys kept from before it existed, keeping the others', async () => {
    // Prepare
    const dataDir = path.join(dir, 'older-keys');
    mkdirSync(dataDir, { recursive: true });
    const older = { secretKey: 'sk_test_local_kept_from_before_0123456789', webhookSecret: 'whsec_local_kept_from_before_0123456789' };
    writeFileSync(path.join(dataDir, 'keys.json'), JSON.stringify(older));

    // Act
    const started = await start(dataDir);

    // Assess
    expect(started).toMatchObject(older);
    expect(started.connectWebhookSecret).toMatch(/^whsec_local_connect_/);
    expect(JSON.parse(readFileSync(path.join(dataDir, 'keys.json'), 'utf8'))).toEqual({ ...older, connectWebhookSecret: started.connectWebhookSecret });
  });
});
