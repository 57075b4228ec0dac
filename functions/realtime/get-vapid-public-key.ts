import { routeByName } from '../../shared/routes';
import { http } from '../common/http';
import { PushNotConfiguredError, vapidPublicKey } from './push-config';

/** The VAPID public key the browser subscribes with (its applicationServerKey). */
export const handler = http(routeByName('get-vapid-public-key'), async () => {
  const publicKey = await vapidPublicKey();
  if (!publicKey) throw new PushNotConfiguredError();
  return { publicKey };
});
