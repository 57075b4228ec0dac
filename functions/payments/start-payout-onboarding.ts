import { routeByName } from '../../shared/routes';
import type { PayoutOnboardingLink } from '../../shared/schemas/invoice';
import { payoutAccountsRepo } from './data/payout-accounts';
import { http } from '../common/http';
import { logger } from '../common/logger';
import { siteOrigin } from '../common/site-origin';
import { stripe } from './stripe';

/**
 * Set up payouts: the worker's Stripe Connect Express account (made once, kept on the profile) and
 * a fresh onboarding link to Stripe's hosted pages, which send them back to their earnings page.
 */
export const handler = http(routeByName('start-payout-onboarding'), async ({ caller, event }) => {
  const worker = caller.worker;
  const origin = siteOrigin(event);
  const client = await stripe();
  let accountId = worker.stripeAccountId;
  if (!accountId) {
    const account = await client.accounts.create(
      {
        type: 'express',
        email: worker.email,
        capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
        metadata: { workerId: worker.id },
      },
      { idempotencyKey: `connect-account-${worker.id}` },
    );
    accountId = await payoutAccountsRepo.attach(worker.id, account.id, new Date().toISOString());
    logger.info('Payout account created', { workerId: worker.id });
  }
  const link = await client.accountLinks.create({
    account: accountId,
    refresh_url: `${origin}/worker/earnings?payouts=refresh`,
    return_url: `${origin}/worker/earnings?payouts=return`,
    type: 'account_onboarding',
  });
  return { url: link.url } satisfies PayoutOnboardingLink;
});
