import { routeByName } from '../../shared/routes';
import { payoutAccountsRepo } from './data/payout-accounts';
import { http } from '../common/http';
import { refreshAccount } from './payments';
import type { Stripe } from './stripe';
import { receiveStripeEvent } from './stripe-webhook';

/** Connected accounts' events: a worker's Express account changed (onboarding finished, payouts enabled or paused). */
async function handle(event: Stripe.Event): Promise<void> {
  switch (event.type) {
    case 'account.updated': {
      const account = event.data.object;
      const workerId = await payoutAccountsRepo.workerIdOf(account.id);
      // Whatever the event says, the account as Stripe has it now decides (events come out of order).
      if (workerId) await refreshAccount(workerId, account.id);
      return;
    }
    default:
      return;
  }
}

/**
 * Stripe's Connect webhook endpoint: events of the workers' connected accounts, which Stripe sends
 * to an endpoint of their own, signed with that endpoint's own secret (`connectWebhookSecret`).
 */
export const handler = http(routeByName('handle-stripe-connect-webhook'), ({ rawBody, event }) => receiveStripeEvent('connect', rawBody, event, handle));
