import { routeByName } from '../shared/routes';
import { stripeEventsRepo } from './lib/data/stripe-events';
import { BadRequestError } from './lib/errors';
import { http } from './lib/http';
import { logger } from './lib/logger';
import { payoutAccountsRepo } from './lib/data/payout-accounts';
import { forgetExpired, refreshAccount, settleFailed, settlePaid, settleProcessing } from './lib/payments';
import { stripe, webhookSecret, type Stripe } from './lib/stripe';

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
 * Stripe's webhook: the signature is checked on the raw body before anything is read. Each event is
 * handled once (its id is recorded after it succeeds); a second delivery, or one racing the first,
 * meets conditional writes that change nothing twice. A failure answers 500 so Stripe retries.
 */
export const handler = http(routeByName('handle-stripe-webhook'), async ({ rawBody, event }) => {
  const signature = event.headers?.['stripe-signature'];
  if (!signature) throw new BadRequestError('Missing Stripe-Signature header.');
  let stripeEvent: Stripe.Event;
  try {
    stripeEvent = stripe().webhooks.constructEvent(rawBody ?? '', signature, webhookSecret());
  } catch (error) {
    logger.warn('Webhook signature refused', { reason: (error as { type?: string }).type ?? (error as Error).name });
    throw new BadRequestError('The webhook signature does not match.');
  }
  if (await stripeEventsRepo.seen(stripeEvent.id)) return { received: true, duplicate: true };
  await handle(stripeEvent);
  await stripeEventsRepo.remember(stripeEvent.id, stripeEvent.type);
  logger.info('Stripe event handled', { eventId: stripeEvent.id, type: stripeEvent.type });
  return { received: true };
});
