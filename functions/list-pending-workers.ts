import { routeByName } from '../shared/routes';
import { applicationsRepo, toPendingWorkerView } from './lib/data/applications';
import { http } from './lib/http';

/** The owner's applications tab: pending worker applications, oldest first, without the SSN. */
export const handler = http(routeByName('list-pending-workers'), async () =>
  (await applicationsRepo.listWorkerApplications('pending')).map(toPendingWorkerView),
);
