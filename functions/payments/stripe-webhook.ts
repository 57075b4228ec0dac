import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { countedLogs } from '../common/counted-logs';
import { stripeEventsRepo } from './data/stripe-events';
import { BadRequestError } from '../common/errors';
import { logger } from '../common/logger';
import { verifiedEvent, type Stripe, type WebhookEndpoint } from './stripe';

/**
 * What both of Stripe's webhook endpoints do with a delivery: the signature is checked on the raw
 * body with that endpoint's own signing secret before anything is read; each event is handled once
 * (its id is recorded after it succeeds); a second delivery, or one racing the first, meets
 * conditional writes that change nothing twice. A failure answers 500 (or 503) so Stripe retries.
 */
export async function receiveStripeEvent(
  endpoint: WebhookEndpoint,
  rawBody: string | undefined,
  event: APIGatewayProxyEventV2,
  handle: (stripeEvent: Stripe.Event) => Promise<void>,
): Promise<{ received: true; duplicate?: true }> {
  const signature = event.headers?.['stripe-signature'];
  if (!signature) throw new BadRequestError('Missing Stripe-Signature header.');
  const stripeEvent = await verifiedEvent(endpoint, rawBody ?? '', signature);
  if (!stripeEvent) {
    logger.warn(countedLogs.webhookSignatureRefused, { endpoint });
    throw new BadRequestError(
      endpoint === 'connect'
        ? 'The webhook signature does not match the Connect endpoint\'s signing secret.'
        : 'The webhook signature does not match the endpoint\'s signing secret.',
    );
  }
  if (await stripeEventsRepo.seen(stripeEvent.id)) return { received: true, duplicate: true };
  await handle(stripeEvent);
  await stripeEventsRepo.remember(stripeEvent.id, stripeEvent.type);
  logger.info('Stripe event handled', { eventId: stripeEvent.id, type: stripeEvent.type, endpoint });
  return { received: true };
}
