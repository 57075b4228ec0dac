import { routeByName } from '../../shared/routes';
import { workerStatusChangeSchema } from '../../shared/schemas/strikes';
import { toWorkerAdminView } from './data/worker-admin';
import { http } from '../common/http';
import { changeWorkerStatus } from '../arrival/strikes';

/**
 * {id} is the worker id: a suspended worker is active again, strikes as they stand (voiding them is
 * a decision of its own); anything else is 409.
 */
export const handler = http(routeByName('reinstate-worker'), workerStatusChangeSchema, async ({ params, body, caller }) =>
  toWorkerAdminView(await changeWorkerStatus(params.id, 'reinstate', body.reason, caller)),
);
