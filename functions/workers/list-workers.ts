import { routeByName } from '../../shared/routes';
import { toWorkerAdminView, workerAdmin } from './data/worker-admin';
import { http } from '../common/http';

/** A page of workers (oldest first), of one status when `status` is given. */
export const handler = http(routeByName('list-workers'), async ({ query }) => {
  const page = await workerAdmin.listPage({ limit: query.limit, cursor: query.cursor }, query.status);
  return { items: page.items.map(toWorkerAdminView), nextCursor: page.nextCursor };
});
