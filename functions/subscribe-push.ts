import { routeByName } from '../shared/routes';
import { pushSubscribeSchema } from '../shared/schemas/push';
import { pushSubscriptionsRepo } from './lib/data/push-subscriptions';
import { http, reply } from './lib/http';
import { logger } from './lib/logger';
import { requirePushPerson } from './lib/push-caller';

/**
 * Enables push for this browser: the subscription is stored for the signed-in person. Subscribing
 * again (new keys after the browser renewed it, or another login in the same browser) replaces it.
 */
export const handler = http(routeByName('subscribe-push'), pushSubscribeSchema, async ({ body, event }) => {
  const person = await requirePushPerson(event);
  await pushSubscriptionsRepo.save(
    person,
    { endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, userAgent: body.userAgent, expirationTime: body.expirationTime },
    new Date().toISOString(),
  );
  logger.info('Push subscribed', { role: person.role });
  return reply(201, { success: true });
});
