import { routeByName } from '../../shared/routes';
import { http } from '../common/http';
import { forgetExpired, settleFailed, settlePaid, settleProcessing } from './payments';
import type { Stripe } from './stripe';
import { receiveStripeEvent } from './stripe-webhook';

/** The platform's own events: Checkout sessions paid, failed or expired. */
async function handle(event: Stripe.Event): Promise<void> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      if (session.payment_status === 'unpaid') await settleProcessing(session);
      else await settlePaid(session);
      return;
    }
    case 'checkout.session.async_payment_succeeded':
      return settlePaid(event.data.object);
    case 'checkout.session.async_payment_failed':
      return settleFailed(event.data.object);
    case 'checkout.session.expired':
      return forgetExpired(event.data.object);
    default:
      // Connected accounts' events (account.updated) come to the Connect endpoint
      // (handle-stripe-connect-webhook), signed with its own secret.
      return;
  }
}

/** Stripe's platform webhook endpoint, checked with the platform endpoint's signing secret. */
export const handler = http(routeByName('handle-stripe-webhook'), ({ rawBody, event }) => receiveStripeEvent('platform', rawBody, event, handle));
