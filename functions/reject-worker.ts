import { routeByName } from '../shared/routes';
import { workerAdmin } from './lib/data/worker-admin';
import { NotFoundError } from './lib/errors';
import { isId } from './lib/data/applications';
import { http } from './lib/http';
import { logger } from './lib/logger';

/** {id} is the application id. */
export const handler = http(routeByName('reject-worker'), async ({ params, caller }) => {
  if (!isId(params.id)) throw new NotFoundError('No application with this id.');
  await workerAdmin.reject(params.id);
  logger.info('Worker application rejected', { applicationId: params.id, ownerId: caller.session.subjectId });
  return { message: 'Worker Rejected' };
});
