import { routeByName } from '../shared/routes';
import { applicationsRepo, toCompanyApplicationView } from './lib/data/applications';
import { http } from './lib/http';

/** Pending company applications, oldest first; documents by name, never their storage keys. */
export const handler = http(routeByName('list-company-applications'), async () =>
  (await applicationsRepo.listCompanyApplications('pending')).map(toCompanyApplicationView),
);
