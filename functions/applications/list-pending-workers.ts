import { routeByName } from '../../shared/routes';
import { applicationsRepo, toPendingWorkerView } from './data/applications';
import { http } from '../common/http';

/** The owner's applications tab: a page of pending worker applications, oldest first, without the SSN. */
export const handler = http(routeByName('list-pending-workers'), async ({ query }) => {
  const page = await applicationsRepo.pageOfWorkerApplications('pending', query);
  return { items: page.items.map(toPendingWorkerView), nextCursor: page.nextCursor };
});
