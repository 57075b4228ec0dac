import { routeByName } from '../shared/routes';
import { workerTypeSchema } from '../shared/schemas/worker';
import { workersRepo } from './lib/data/workers';
import { http } from './lib/http';

/** The worker-type choice, kept on the server as well as in the browser. */
export const handler = http(routeByName('set-worker-type'), workerTypeSchema, async ({ body, caller }) => {
  const worker = await workersRepo.setWorkerType(caller.worker.id, body.workerType);
  return { workerType: worker.workerType };
});
