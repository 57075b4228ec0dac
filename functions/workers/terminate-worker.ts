import { routeByName } from '../../shared/routes';
import { workerStatusChangeSchema } from '../../shared/schemas/strikes';
import { toWorkerAdminView } from './data/worker-admin';
import { http } from '../common/http';
import { changeWorkerStatus } from '../arrival/strikes';

/**
 * {id} is the worker id: an active or suspended worker, whatever their strikes, with a reason they
 * are shown; their sessions end. A terminated or pending worker is 409.
 */
export const handler = http(routeByName('terminate-worker'), workerStatusChangeSchema, async ({ params, body, caller }) =>
  toWorkerAdminView(await changeWorkerStatus(params.id, 'terminate', body.reason, caller)),
);
