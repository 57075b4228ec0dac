import { routeByName } from '../../shared/routes';
import { workerStatusChangeSchema } from '../../shared/schemas/strikes';
import { toWorkerAdminView } from './data/worker-admin';
import { http } from '../common/http';
import { changeWorkerStatus } from '../arrival/strikes';

/**
 * {id} is the worker id: an active worker is suspended (off dispatch, signed out) with a reason they
 * are shown when they sign in again; anything else is 409.
 */
export const handler = http(routeByName('suspend-worker'), workerStatusChangeSchema, async ({ params, body, caller }) =>
  toWorkerAdminView(await changeWorkerStatus(params.id, 'suspend', body.reason, caller)),
);
