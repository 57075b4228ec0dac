import { routeByName } from '../../shared/routes';
import { pushSubscribeSchema } from '../../shared/schemas/push';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { http, reply } from '../common/http';
import { logger } from '../common/logger';
import { requirePushPerson } from './push-caller';
import { assertPushKeys, assertPushServiceEndpoint } from './push-endpoint';
import { takeCreation } from '../common/creation-limits';

/**
 * Enables push for this browser: the subscription is stored for the signed-in person. Subscribing
 * again (new keys after the browser renewed it, or another login in the same browser) replaces it.
 */
export const handler = http(routeByName('subscribe-push'), pushSubscribeSchema, async ({ body, caller, event }) => {
  const person = requirePushPerson(caller);
  // Every push to it is a POST from our functions: only a browser vendor's push service may get one.
  // Checked before anything is counted or written, so a refused endpoint leaves nothing behind.
  assertPushServiceEndpoint(body.endpoint);
  assertPushKeys(body.keys);
  await takeCreation('push-subscription', event, `${person.role}#${person.userId}`);
  await pushSubscriptionsRepo.save(
    person,
    { endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, userAgent: body.userAgent, expirationTime: body.expirationTime },
    new Date().toISOString(),
  );
  logger.info('Push subscribed', { role: person.role });
  return reply(201, { success: true });
});
