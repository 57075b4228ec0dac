import { routeByName } from '../../shared/routes';
import { applicationsRepo, toCompanyApplicationView } from './data/applications';
import { http } from '../common/http';

/** A page of pending company applications, oldest first; documents by name, never their storage keys. */
export const handler = http(routeByName('list-company-applications'), async ({ query }) => {
  const page = await applicationsRepo.pageOfCompanyApplications('pending', query);
  return { items: page.items.map(toCompanyApplicationView), nextCursor: page.nextCursor };
});
