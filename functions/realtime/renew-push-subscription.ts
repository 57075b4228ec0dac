import { routeByName } from '../../shared/routes';
import { pushRenewSchema } from '../../shared/schemas/push';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { NotFoundError, ValidationError } from '../common/errors';
import { http } from '../common/http';
import { logger } from '../common/logger';
import { assertPushKeys, assertPushServiceEndpoint } from './push-endpoint';

const UNKNOWN = 'This browser has no push subscription here to renew. Enable push again.';

/**
 * The browser replaced its push subscription (the service worker's pushsubscriptionchange): the
 * new one is stored for whoever the old one belonged to, and the old one forgotten. Knowing the
 * old endpoint is the proof: it is an unguessable URL only that browser and this server hold.
 */
export const handler = http(routeByName('renew-push-subscription'), pushRenewSchema, async ({ body }) => {
  // The old endpoint is only looked up; the new one is where pushes will go.
  assertPushServiceEndpoint(body.endpoint);
  assertPushKeys(body.keys);
  if (body.oldEndpoint === body.endpoint) {
    throw new ValidationError('The new subscription is the one already stored.', { endpoint: 'The new subscription is the one already stored.' });
  }
  const person = await pushSubscriptionsRepo.personOf(body.oldEndpoint);
  if (!person) throw new NotFoundError(UNKNOWN);
  const previous = await pushSubscriptionsRepo.find(person, body.oldEndpoint);
  await pushSubscriptionsRepo.save(
    person,
    { endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth, userAgent: previous?.userAgent, expirationTime: body.expirationTime },
    new Date().toISOString(),
  );
  await pushSubscriptionsRepo.remove(person, body.oldEndpoint);
  logger.info('Push subscription renewed', { role: person.role });
  return { success: true } as const;
});
