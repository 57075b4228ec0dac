import { routeByName } from '../../shared/routes';
import { sessions } from '../common/auth/sessions';
import { http } from '../common/http';

/** Ends this token's session server-side: a copied token stops working too. */
export const handler = http(routeByName('logout-worker'), async ({ caller }) => {
  await sessions.end(caller.sessionSecret);
  return { ok: true } as const;
});
