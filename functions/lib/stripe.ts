import Stripe from 'stripe';
import { env } from './env';

/**
 * The one adapter for Stripe: the real SDK, pointed at the local Stripe endpoint
 * (infra/local/stripe.ts) when STRIPE_API_URL is set, at api.stripe.com otherwise.
 * Created on first use, once per container: only the payment functions bundle it.
 */
let client: Stripe | undefined;

export function stripe(): Stripe {
  if (client) return client;
  if (!env.STRIPE_SECRET_KEY) {
    throw new Error('STRIPE_SECRET_KEY must be set on every function that uses functions/lib/stripe.ts');
  }
  const local = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : undefined;
  client = new Stripe(env.STRIPE_SECRET_KEY, {
    // Retries reuse the idempotency key the SDK adds, so a retried create never charges twice.
    maxNetworkRetries: 2,
    timeout: 10_000,
    ...(local
      ? { host: local.hostname, port: Number(local.port || (local.protocol === 'https:' ? 443 : 80)), protocol: local.protocol.replace(':', '') as 'http' | 'https' }
      : {}),
  });
  return client;
}

export function webhookSecret(): string {
  if (!env.STRIPE_WEBHOOK_SECRET) {
    throw new Error('STRIPE_WEBHOOK_SECRET must be set on the webhook function (the whsec_ signing secret of its endpoint)');
  }
  return env.STRIPE_WEBHOOK_SECRET;
}

export type { Stripe };
