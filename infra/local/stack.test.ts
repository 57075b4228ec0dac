import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from './stack';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-stack-files-'));
let stack: LocalStack | undefined;

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start: the files it leaves in the data folder', () => {
  it('writes stack.json without any key, readable by its owner only, even over an older readable one; the secrets live in its Secrets Manager', async () => {
    // Prepare: a stack.json a killed run left behind, readable by everyone
    const stackFile = path.join(dataDir, 'stack.json');
    writeFileSync(stackFile, '{}', { mode: 0o644 });

    // Act
    stack = await startLocalStack({ port: 0, dataDir, web: false });

    // Assess
    const text = readFileSync(stackFile, 'utf8');
    const written = JSON.parse(text) as { url: string; secrets?: { endpoint: string; ids: Record<string, string> } };
    const stripeKeys = JSON.parse(readFileSync(path.join(dataDir, 'stripe', 'keys.json'), 'utf8')) as Record<string, string>;
    expect(written.url).toBe(stack.url);
    expect(written.secrets).toMatchObject({ endpoint: stack.secretsEndpoint, ids: { stripe: 'marketplace/local/stripe', vapid: 'marketplace/local/vapid' } });
    for (const key of Object.values(stripeKeys)) expect(text).not.toContain(key);
    expect(statSync(stackFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, 'stripe', 'keys.json')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, 'secrets', 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  it("gives the functions the secrets' ids and the local Secrets Manager, which holds the local Stripe's keys and the VAPID keys", async () => {
    // Prepare
    const stripeKeys = JSON.parse(readFileSync(path.join(dataDir, 'stripe', 'keys.json'), 'utf8')) as Record<string, string>;
    const vapidKeys = JSON.parse(readFileSync(path.join(dataDir, 'push', 'vapid.json'), 'utf8')) as Record<string, string>;
    const client = new SecretsManagerClient({ region: 'us-east-1', endpoint: process.env.SECRETS_MANAGER_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

    // Act
    const stripe = await client.send(new GetSecretValueCommand({ SecretId: process.env.STRIPE_SECRET_ID }));
    const vapid = await client.send(new GetSecretValueCommand({ SecretId: process.env.VAPID_SECRET_ID }));
    client.destroy();

    // Assess
    expect(process.env.SECRETS_MANAGER_ENDPOINT).toBe(stack!.secretsEndpoint);
    expect(JSON.parse(stripe.SecretString!)).toEqual(stripeKeys);
    expect(JSON.parse(vapid.SecretString!)).toEqual({ publicKey: vapidKeys.publicKey, privateKey: vapidKeys.privateKey });
    const values = Object.values(process.env);
    for (const key of [...Object.values(stripeKeys), vapidKeys.privateKey]) expect(values).not.toContain(key);
  });

  it("has its Stripe deliver a payment to the platform webhook and an account's onboarding to the Connect webhook, each accepted with its own secret", async () => {
    // Prepare
    const { secretKey } = JSON.parse(readFileSync(path.join(dataDir, 'stripe', 'keys.json'), 'utf8')) as { secretKey: string };
    const endpoint = new URL(stack!.stripeEndpoint!);
    const stripe = new Stripe(secretKey, { host: endpoint.hostname, port: Number(endpoint.port), protocol: 'http', maxNetworkRetries: 0 });
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 5000, product_data: { name: 'Leak repair' } } }],
      metadata: { invoiceId: 'no-such-invoice' },
      success_url: `${stack!.url}/payment-success`,
      cancel_url: `${stack!.url}/payment-cancelled`,
    });
    const account = await stripe.accounts.create({ type: 'express', email: 'pro@example.com' });
    const link = await stripe.accountLinks.create({ account: account.id, type: 'account_onboarding', refresh_url: `${stack!.url}/r`, return_url: `${stack!.url}/x` });
    const press = (url: string) => fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });

    // Act: Pay, then Complete onboarding, on its hosted pages (each redirects once its event is delivered).
    await press(`${session.url}/pay`);
    await press(link.url);
    const events = (await (await fetch(`${stack!.stripeEndpoint}/_local/events`)).json()) as { data: { type: string; delivered: boolean; last_error: string | null }[] };

    // Assess
    expect(events.data.map(({ type, delivered, last_error }) => ({ type, delivered, last_error }))).toEqual([
      { type: 'checkout.session.completed', delivered: true, last_error: null },
      { type: 'account.updated', delivered: true, last_error: null },
    ]);
  });
});
