import { routeByName } from '../shared/routes';
import { workerAdmin } from './lib/data/worker-admin';
import { http } from './lib/http';
import { logger } from './lib/logger';

/** {id} is the application id. */
export const handler = http(routeByName('reject-worker'), async ({ params, caller }) => {
  await workerAdmin.reject(params.id);
  logger.info('Worker application rejected', { applicationId: params.id, ownerId: caller.id });
  return { message: 'Worker Rejected' };
});
