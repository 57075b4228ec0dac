import { routeByName } from '../../shared/routes';
import { NotFoundError } from '../common/errors';
import { http, reply } from '../common/http';
import { pushTo } from './push';
import { PushNotConfiguredError, vapidPublicKey } from './push-config';
import { requirePushPerson, type PushPerson } from './push-caller';

const NO_SUBSCRIPTION = 'No push subscription for this browser. Enable push first.';

/** Where a click on the test notification leads: the caller's own home screen. */
const homeOf: Record<PushPerson['role'], string> = { customer: '/', worker: '/worker/dashboard', owner: '/admin' };

/** Sends "Test notification" to every browser the caller enabled push on. */
export const handler = http(routeByName('send-test-push'), async ({ caller }) => {
  const person = requirePushPerson(caller);
  if (!(await vapidPublicKey())) throw new PushNotConfiguredError();
  const outcome = await pushTo(person.role, person.userId, {
    title: 'Test notification',
    body: 'Push notifications are working on this device.',
    url: homeOf[person.role],
    tag: 'test',
  }, { ttlSeconds: 60 });
  if (outcome.sent > 0) return { success: true, sent: outcome.sent } as const;
  // Nothing stored, or every stored one had ended at its push service (now deleted).
  if (outcome.failed === 0) throw new NotFoundError(NO_SUBSCRIPTION);
  return reply(502, { error: 'PushDeliveryError', message: 'The push service did not accept the notification. Try again in a moment.' });
});
