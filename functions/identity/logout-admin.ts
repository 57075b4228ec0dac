import { routeByName } from '../../shared/routes';
import { http } from '../common/http';
import { endOwnerSession } from './owner-logout';

export const handler = http(routeByName('logout-admin'), async ({ event }) => endOwnerSession(event));
