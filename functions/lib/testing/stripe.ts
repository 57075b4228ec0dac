import Stripe from 'stripe';
import { env } from '../env';

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
