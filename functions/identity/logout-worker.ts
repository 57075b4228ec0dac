import { routeByName } from '../../shared/routes';
import { sessions } from '../lib/auth/sessions';
import { http } from '../lib/http';

/** Ends this token's session server-side: a copied token stops working too. */
export const handler = http(routeByName('logout-worker'), async ({ caller }) => {
  await sessions.end(caller.sessionSecret);
  return { ok: true } as const;
});
