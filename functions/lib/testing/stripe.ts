import Stripe from 'stripe';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { InvoiceItem } from '../data/invoices';
import { env } from '../env';
import { newId } from '../ids';
import { sampleEvent } from './events';

/**
 * The handler tests' Stripe: the real SDK against the local Stripe endpoint the test setup runs
 * (infra/local/stripe.ts), plus its hosted pages, driven as a browser would post their forms.
 */
const local = new URL(env.STRIPE_API_URL!);
export const testStripe = new Stripe(env.STRIPE_SECRET_KEY!, { host: local.hostname, port: Number(local.port), protocol: 'http' });

/** Presses a hosted page's button (Pay, Cancel, Complete onboarding); answers where it redirects. */
export async function pressHostedButton(pageUrl: string, action: 'pay' | 'cancel' | 'complete'): Promise<string | null> {
  const target = action === 'complete' ? pageUrl : `${pageUrl}/${action}`;
  const response = await fetch(target, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  if (response.status !== 303) throw new Error(`${target} answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return response.headers.get('location');
}

/** A connected account that finished onboarding (payouts enabled). */
export async function onboardedAccount(email = 'worker@example.com'): Promise<string> {
  const account = await testStripe.accounts.create({ type: 'express', email });
  const link = await testStripe.accountLinks.create({ account: account.id, type: 'account_onboarding', refresh_url: 'http://localhost/refresh', return_url: 'http://localhost/return' });
  await pressHostedButton(link.url, 'complete');
  return account.id;
}

const signer = new Stripe('sk_test_unused');

/** A Stripe event as Stripe sends it to the webhook: the raw JSON and its Stripe-Signature header. */
export function signedStripeEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; secret?: string } = {},
  sample: APIGatewayProxyEventV2 = sampleEvent('handle-stripe-webhook'),
): APIGatewayProxyEventV2 {
  const payload = JSON.stringify({ id: options.id ?? `evt_${newId()}`, object: 'event', api_version: Stripe.API_VERSION, created: Math.floor(Date.now() / 1000), livemode: false, type, data: { object } });
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? env.STRIPE_WEBHOOK_SECRET! });
  return { ...sample, body: payload, headers: { ...sample.headers, 'stripe-signature': signature } };
}

/** A completed, paid Checkout session of this invoice, as its webhook event carries it. */
export function completedSession(invoice: InvoiceItem, overrides: Record<string, unknown> = {}) {
  return {
    id: `cs_test_${newId()}`,
    object: 'checkout.session',
    status: 'complete',
    payment_status: 'paid',
    payment_intent: `pi_${newId()}`,
    amount_total: invoice.totalAmount,
    client_reference_id: invoice.id,
    metadata: { invoiceId: invoice.id, jobId: invoice.jobId, destination: '' },
    ...overrides,
  };
}
