import { routeByName } from '../shared/routes';
import { workerCreateAccountSchema } from '../shared/schemas/auth';
import { hashPassword } from './lib/auth/passwords';
import { sessions } from './lib/auth/sessions';
import { applicantAccounts } from './lib/data/applicant-accounts';
import { toWorkerSelf } from './lib/data/workers';
import { ForbiddenError } from './lib/errors';
import { http, reply } from './lib/http';
import { newId } from './lib/ids';
import { logger } from './lib/logger';

/** One answer for every refusal, so the response never tells whether an email applied. */
export const NO_APPROVED_APPLICATION =
  'No application matches this email, or an account already exists. Use the email you applied with, or log in.';

/**
 * Whoever applied with this email (under review or approved) and has no account may create one:
 * before the decision it signs in to "Application Under Review" only (lib/data/applicant-accounts.ts).
 * A rejected applicant without an account may not. The password is hashed first on every call, so
 * refusals cost what a success costs.
 */
export const handler = http(routeByName('create-worker-account'), workerCreateAccountSchema, async ({ body, event }) => {
  const passwordHash = await hashPassword(body.password);
  const worker = await applicantAccounts.create(body.email, passwordHash, newId());
  if (!worker) {
    logger.warn('Worker account refused', { requestId: event.requestContext.requestId });
    throw new ForbiddenError(NO_APPROVED_APPLICATION);
  }

  const { secret } = await sessions.start('worker', worker.id, worker.email);
  logger.info('Worker account created', { workerId: worker.id, status: worker.status });
  return reply(201, { worker: toWorkerSelf(worker), token: secret });
});
