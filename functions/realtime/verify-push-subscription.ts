import { routeByName } from '../../shared/routes';
import { pushEndpointSchema } from '../../shared/schemas/push';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { requirePushPerson } from './push-caller';

/**
 * Whether this browser's subscription is still stored for the caller. 404 (not stored, or past the
 * expiry its push service gave) tells the client to drop it locally and offer push again.
 */
export const handler = http(routeByName('verify-push-subscription'), pushEndpointSchema, async ({ body, caller }) => {
  const person = requirePushPerson(caller);
  const subscription = await pushSubscriptionsRepo.find(person, body.endpoint);
  if (!subscription || (subscription.expirationTime !== undefined && subscription.expirationTime <= Date.now())) {
    throw new NotFoundError('No push subscription for this browser. Enable push again.');
  }
  return { valid: true } as const;
});
