import { routeByName } from '../../shared/routes';
import { toOwnerUser } from './data/owner';
import { http, reply } from '../common/http';

/**
 * The cookie session's user; an answer that is not ok, or has no user, means signed out. Workers ask
 * GET /api/workers/me with their token instead.
 */
export const handler = http(routeByName('get-current-user'), async ({ caller }) => {
  if (caller.role !== 'owner') return reply(401, { ok: false, error: 'UnauthorizedError', message: 'Not signed in' });
  return { ok: true, user: toOwnerUser(caller) } as const;
});
