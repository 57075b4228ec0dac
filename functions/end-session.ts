import { routeByName } from '../shared/routes';
import { endOwnerSession } from './logout-admin';
import { http } from './lib/http';

/** POST /api/auth/logout, the session call of the customer spec: the same as the owner's logout. */
export const handler = http(routeByName('end-session'), async ({ event }) => endOwnerSession(event));
