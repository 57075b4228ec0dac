import { routeByName } from '../../shared/routes';
import { workerRejectionSchema } from '../../shared/schemas/applications';
import { applicationDecided } from './applicant-events';
import { workerAdmin } from '../workers/data/worker-admin';
import { http } from '../common/http';
import { logger } from '../common/logger';

/**
 * {id} is the application id. The owner's notes are required (the applicant reads them on their
 * review screen). An applicant with an account hears of it live and in their notifications.
 */
export const handler = http(routeByName('reject-worker'), workerRejectionSchema, async ({ params, body, caller }) => {
  const applicant = await workerAdmin.reject(params.id, body.notes);
  logger.info('Worker application rejected', { applicationId: params.id, ownerId: caller.id });
  if (applicant) await applicationDecided(applicant);
  return { message: 'Worker Rejected' };
});
