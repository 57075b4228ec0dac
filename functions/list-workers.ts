import { routeByName } from '../shared/routes';
import { toWorkerAdminView, workerAdmin } from './lib/data/worker-admin';
import { http } from './lib/http';

export const handler = http(routeByName('list-workers'), async () => (await workerAdmin.listAll()).map(toWorkerAdminView));
