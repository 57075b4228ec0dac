import { routeByName } from '../shared/routes';
import { workerAdmin } from './lib/data/worker-admin';
import { NotFoundError } from './lib/errors';
import { http } from './lib/http';
import { newId } from './lib/ids';
import { isId } from './lib/data/applications';
import { logger } from './lib/logger';

/** {id} is the application id; approving creates the worker (active, verified) from it. */
export const handler = http(routeByName('approve-worker'), async ({ params, caller }) => {
  if (!isId(params.id)) throw new NotFoundError('No application with this id.');
  const worker = await workerAdmin.approve(params.id, newId());
  logger.info('Worker application approved', { applicationId: params.id, workerId: worker.id, ownerId: caller.session.subjectId });
  return { message: 'Worker Approved', workerId: worker.id };
});
