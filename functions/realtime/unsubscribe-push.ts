import { routeByName } from '../../shared/routes';
import { pushEndpointSchema } from '../../shared/schemas/push';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { logger } from '../common/logger';
import { requirePushPerson } from './push-caller';

/** Disables push for this browser. Not stored for the caller: 404, which the web client ignores (the browser is unsubscribed either way). */
export const handler = http(routeByName('unsubscribe-push'), pushEndpointSchema, async ({ body, caller }) => {
  const person = requirePushPerson(caller);
  if (!(await pushSubscriptionsRepo.remove(person, body.endpoint))) {
    throw new NotFoundError('No push subscription for this browser.');
  }
  logger.info('Push unsubscribed', { role: person.role });
  return { success: true } as const;
});
