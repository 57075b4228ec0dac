import Stripe from 'stripe';
import { env } from '../common/env';
import { readSecretFields } from '../common/secrets';

/**
 * The one adapter for Stripe: the real SDK, pointed at the local Stripe endpoint
 * (infra/local/stripe.ts) when STRIPE_API_URL is set, at api.stripe.com otherwise. Its keys are in
 * the Stripe secret (functions/common/secrets.ts), read at run time; only the payment functions bundle it.
 */

/**
 * How long one Stripe call may go without an answer before the SDK gives up on it, and how many
 * times it then tries again. A function has 10 s (infra/function-defaults.ts); a Stripe that does
 * not answer must end in our 503 with Retry-After, not in a Lambda timeout the caller sees as a
 * 502/503 with no words. Worst case: 2 × 3 s plus one backoff of at most 0.5 s, 6.5 s, leaving the
 * rest for the secret, DynamoDB and the answer (functions/payments/stripe.test.ts pins the order).
 * Stripe answers these calls in well under a second, so 3 s is a stuck call, not a slow one.
 */
export const STRIPE_TIMEOUT_MS = 3_000;
export const STRIPE_MAX_NETWORK_RETRIES = 1;
/** The SDK's own backoff before retry n (1-based): 0.5 s doubling, at most 5 s (stripe-node's constants). */
const STRIPE_RETRY_DELAY_MS = (retry: number) => Math.min(500 * 2 ** (retry - 1), 5_000);

/** The longest one Stripe call can take, with every try timing out and every backoff at its longest. */
export function stripeWorstCaseMs(timeoutMs = STRIPE_TIMEOUT_MS, retries = STRIPE_MAX_NETWORK_RETRIES): number {
  let backoff = 0;
  // stripe-node retries a dropped connection once even with no retries configured.
  const attempts = Math.max(retries, 1) + 1;
  for (let retry = 1; retry < attempts; retry++) backoff += STRIPE_RETRY_DELAY_MS(retry);
  return timeoutMs * attempts + backoff;
}

/** One client per secret key, so a key rotated in the secret is used as soon as the cache lets it in. */
let client: { key: string; stripe: Stripe } | undefined;

export async function stripe(): Promise<Stripe> {
  const { secretKey } = await readSecretFields('stripe', ['secretKey']);
  if (client?.key === secretKey) return client.stripe;
  const local = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : undefined;
  const made = new Stripe(secretKey, {
    // Retries reuse the idempotency key the SDK adds, so a retried create never charges twice.
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    timeout: STRIPE_TIMEOUT_MS,
    ...(local
      ? { host: local.hostname, port: Number(local.port || (local.protocol === 'https:' ? 443 : 80)), protocol: local.protocol.replace(':', '') as 'http' | 'https' }
      : {}),
  });
  client = { key: secretKey, stripe: made };
  return made;
}

/** Which of the two webhook endpoints registered with Stripe: the platform's own events, or its connected accounts'. */
export type WebhookEndpoint = 'platform' | 'connect';

/**
 * A signature that does not match makes the function read the signing secret again (it may have
 * been rotated since this container cached it), but not more often than this per endpoint: a flood
 * of forged events must not become a flood of Secrets Manager reads. Stripe retries a refused event
 * for days, so one refused in between is delivered again.
 */
export const WEBHOOK_FRESH_READ_INTERVAL_MS = 30_000;
const lastFreshRead: Record<WebhookEndpoint, number> = { platform: Number.NEGATIVE_INFINITY, connect: Number.NEGATIVE_INFINITY };

/** The clock of the fresh reads, replaceable by tests (nothing sleeps). */
export const webhookClock = { now: (): number => Date.now() };

function matches(rawBody: string, signature: string, secret: string): Stripe.Event | undefined {
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return undefined;
    throw error;
  }
}

/**
 * Checks a webhook's signature against its endpoint's signing secret and answers the event, or
 * undefined when it does not match. A mismatch reads the secret once more, fresh, before giving up.
 */
export async function verifiedEvent(endpoint: WebhookEndpoint, rawBody: string, signature: string): Promise<Stripe.Event | undefined> {
  const field = endpoint === 'connect' ? 'connectWebhookSecret' : 'webhookSecret';
  const cached = matches(rawBody, signature, (await readSecretFields('stripe', [field]))[field]);
  if (cached) return cached;
  const now = webhookClock.now();
  if (now - lastFreshRead[endpoint] < WEBHOOK_FRESH_READ_INTERVAL_MS) return undefined;
  lastFreshRead[endpoint] = now;
  return matches(rawBody, signature, (await readSecretFields('stripe', [field], { fresh: true }))[field]);
}

export type { Stripe };
