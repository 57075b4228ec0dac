import { routeByName } from '../../shared/routes';
import { notificationsRepo } from './data/notifications';
import { http } from '../common/http';
import { pushPersonOf } from './push-caller';

/** The notification centre's history, newest first (the same list a socket gets on register); nobody's is empty. */
export const handler = http(routeByName('list-notifications'), async ({ caller }) => {
  const person = pushPersonOf(caller);
  return person ? notificationsRepo.latest(person.role, person.userId) : [];
});
