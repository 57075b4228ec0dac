import { routeByName } from '../../shared/routes';
import { endOwnerSession } from './owner-logout';
import { http } from '../common/http';

/** POST /api/auth/logout, the sign-out beside GET /api/auth/me: the same as the owner's logout. */
export const handler = http(routeByName('end-session'), async ({ event }) => endOwnerSession(event));
