import { routeByName } from '../../shared/routes';
import { applicationDecided } from './applicant-events';
import { workerAdmin } from '../workers/data/worker-admin';
import { http } from '../common/http';
import { newId } from '../common/ids';
import { logger } from '../common/logger';

/**
 * {id} is the application id. Approving turns the applicant's profile active: the one their
 * account made while under review, or a new one (active, verified, no account yet) from the
 * application. The applicant hears of it live and in their notifications.
 */
export const handler = http(routeByName('approve-worker'), async ({ params, caller }) => {
  const worker = await workerAdmin.approve(params.id, newId());
  logger.info('Worker application approved', { applicationId: params.id, workerId: worker.id, ownerId: caller.id });
  await applicationDecided(worker);
  return { message: 'Worker Approved', workerId: worker.id };
});
