import { routeByName } from '../shared/routes';
import { workerCreateAccountSchema } from '../shared/schemas/auth';
import { hashPassword } from './lib/auth/passwords';
import { sessions } from './lib/auth/sessions';
import { toWorkerSelf, workersRepo } from './lib/data/workers';
import { ForbiddenError } from './lib/errors';
import { http, reply } from './lib/http';
import { logger } from './lib/logger';

/** One answer for every refusal, so the response never tells whether an email applied. */
export const NO_APPROVED_APPLICATION =
  'No approved application matches this email, or an account already exists. Use the email you applied with, or log in.';

/**
 * Only an approved applicant (an email claim naming a worker profile) without an account may
 * create one. The password is hashed first on every call, so refusals cost what a success costs.
 */
export const handler = http(routeByName('create-worker-account'), workerCreateAccountSchema, async ({ body, event }) => {
  const passwordHash = await hashPassword(body.password);
  const worker = await workersRepo.findByEmail(body.email);
  const eligible = worker && !worker.hasAccount && worker.status !== 'pending_review';
  if (!eligible || !(await workersRepo.createAccount(worker.id, passwordHash))) {
    logger.warn('Worker account refused', { requestId: event.requestContext.requestId });
    throw new ForbiddenError(NO_APPROVED_APPLICATION);
  }

  const { secret } = await sessions.start('worker', worker.id, worker.email);
  logger.info('Worker account created', { workerId: worker.id });
  return reply(201, { worker: toWorkerSelf(worker), token: secret });
});
