import { routeByName } from '../shared/routes';
import { signedInPerson } from './lib/auth/person';
import { notificationsRepo } from './lib/data/notifications';
import { http } from './lib/http';

/** The notification centre's history, newest first (the same list a socket gets on register). */
export const handler = http(routeByName('list-notifications'), async ({ event }) => {
  const person = await signedInPerson(event);
  return person ? notificationsRepo.latest(person.role, person.id) : [];
});
