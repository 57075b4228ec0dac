import { routeByName } from '../shared/routes';
import { workerAdmin } from './lib/data/worker-admin';
import { http } from './lib/http';
import { newId } from './lib/ids';
import { logger } from './lib/logger';

/** {id} is the application id; approving creates the worker (active, verified) from it. */
export const handler = http(routeByName('approve-worker'), async ({ params, caller }) => {
  const worker = await workerAdmin.approve(params.id, newId());
  logger.info('Worker application approved', { applicationId: params.id, workerId: worker.id, ownerId: caller.id });
  return { message: 'Worker Approved', workerId: worker.id };
});
