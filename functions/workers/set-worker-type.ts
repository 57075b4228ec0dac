import { routeByName } from '../../shared/routes';
import { workerTypeSchema } from '../../shared/schemas/worker';
import { dispatchIndex } from '../jobs/data/dispatch-index';
import { workersRepo } from './data/workers';
import { http } from '../common/http';

/** The worker-type choice, kept on the server as well as in the browser. */
export const handler = http(routeByName('set-worker-type'), workerTypeSchema, async ({ body, caller }) => {
  const worker = await workersRepo.setWorkerType(caller.worker.id, body.workerType);
  // A contract worker is offered scheduled jobs whether on the clock or not: their index entries follow the type.
  await dispatchIndex.sync(worker);
  return { workerType: worker.workerType };
});
