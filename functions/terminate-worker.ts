import { routeByName } from '../shared/routes';
import { sessions } from './lib/auth/sessions';
import { dispatchIndex } from './lib/data/dispatch-index';
import { workerAdmin } from './lib/data/worker-admin';
import { workersRepo } from './lib/data/workers';
import { http } from './lib/http';
import { logger } from './lib/logger';

/** {id} is the worker id: only an active worker with 2 or more strikes; their sessions end too. */
export const handler = http(routeByName('terminate-worker'), async ({ params, caller }) => {
  await workerAdmin.terminate(params.id);
  await sessions.endAllOf('worker', params.id);
  const worker = await workersRepo.findById(params.id);
  if (worker) await dispatchIndex.sync(worker);
  logger.info('Worker terminated', { workerId: params.id, ownerId: caller.id });
  return { message: 'Worker Terminated' };
});
