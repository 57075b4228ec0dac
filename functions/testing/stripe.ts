import { CreateSecretCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import { vi } from 'vitest';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { InvoiceItem } from '../payments/data/invoices';
import { env } from '../common/env';
import { newId } from '../common/ids';
import { readSecretFields } from '../common/secrets';
import { sampleEvent } from './events';

/**
 * The handler tests' Stripe: the real SDK against the local Stripe endpoint the test setup runs
 * (infra/local/stripe.ts), plus its hosted pages, driven as a browser would post their forms.
 */
const local = new URL(env.STRIPE_API_URL!);
/** The keys the functions read, from the test setup's local Secrets Manager, as they read them. */
export const stripeKeys = await readSecretFields('stripe', ['secretKey', 'webhookSecret', 'connectWebhookSecret']);
export const testStripe = new Stripe(stripeKeys.secretKey, { host: local.hostname, port: Number(local.port), protocol: 'http' });

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

/**
 * A Stripe event as Stripe sends it to one of the webhook endpoints: the raw JSON and its
 * Stripe-Signature header, signed with that endpoint's secret (`connect`: the Connect endpoint's,
 * with the connected `account` the event is about, as Stripe sends it there).
 */
export function signedStripeEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; secret?: string; connect?: boolean } = {},
  sample: APIGatewayProxyEventV2 = sampleEvent(options.connect ? 'handle-stripe-connect-webhook' : 'handle-stripe-webhook'),
): APIGatewayProxyEventV2 {
  const payload = JSON.stringify({
    id: options.id ?? `evt_${newId()}`,
    object: 'event',
    ...(options.connect && typeof object.id === 'string' ? { account: object.id } : {}),
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: { object },
  });
  const secret = options.secret ?? (options.connect ? stripeKeys.connectWebhookSecret : stripeKeys.webhookSecret);
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret });
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

/**
 * A Stripe secret of the test's own (a copy of the setup's keys, `SECRETS_MANAGER_ENDPOINT` as
 * given) and a handler loaded afresh, as a new container told that secret's id: rotating it moves no
 * other test's secret. `rotate` puts new values in it, as the operator does.
 */
export async function withOwnStripeSecret<H>(load: () => Promise<H>, endpoint = process.env.SECRETS_MANAGER_ENDPOINT!) {
  const admin = new SecretsManagerClient({ region: env.AWS_REGION, endpoint: process.env.SECRETS_MANAGER_ENDPOINT });
  const id = `marketplace/test/stripe-${newId()}`;
  let current: Record<string, string> = { ...stripeKeys };
  await admin.send(new CreateSecretCommand({ Name: id, SecretString: JSON.stringify(current) }));
  vi.resetModules();
  vi.stubEnv('STRIPE_SECRET_ID', id);
  vi.stubEnv('SECRETS_MANAGER_ENDPOINT', endpoint);
  const handler = await load();
  vi.unstubAllEnvs();
  return {
    handler,
    rotate: async (fields: Partial<typeof stripeKeys>) => {
      current = { ...current, ...fields };
      await admin.send(new PutSecretValueCommand({ SecretId: id, SecretString: JSON.stringify(current) }));
    },
  };
}
