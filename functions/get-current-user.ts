import { routeByName } from '../shared/routes';
import { ownerFrom } from './lib/auth/caller';
import { toOwnerUser } from './lib/data/owner';
import { http, reply } from './lib/http';

/**
 * The cookie session's user (spec: "not ok or no user means signed out"). Workers ask
 * GET /api/workers/me with their token instead.
 */
export const handler = http(routeByName('get-current-user'), async ({ event }) => {
  const session = await ownerFrom(event);
  if (!session) return reply(401, { ok: false, error: 'UnauthorizedError', message: 'Not signed in' });
  return { ok: true, user: toOwnerUser({ id: session.subjectId, username: session.username }) };
});
