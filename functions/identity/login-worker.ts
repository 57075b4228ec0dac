import { routeByName } from '../../shared/routes';
import { workerLoginSchema } from '../../shared/schemas/auth';
import { beginLogin } from '../common/auth/login';
import { spendVerifyTime, verifyPassword } from '../common/auth/passwords';
import { sessions } from '../common/auth/sessions';
import { toWorkerSelf, workersRepo, type WorkerItem } from '../workers/data/workers';
import { UnauthorizedError } from '../common/errors';
import { http, reply } from '../common/http';
import { logger } from '../common/logger';

/** The worker whose email and password these are; an unknown email costs the same hashing time. */
async function workerWithCredentials(email: string, password: string): Promise<WorkerItem | undefined> {
  const worker = await workersRepo.findByEmail(email);
  const hash = worker ? await workersRepo.passwordHashOf(worker.id) : undefined;
  if (!worker || !hash) {
    await spendVerifyTime(password);
    return undefined;
  }
  return (await verifyPassword(password, hash)) ? worker : undefined;
}

/**
 * A new bearer token at every login (only its hash is stored), and a new device cookie for the
 * email in this browser. Applicants with an account (under review, or not approved), suspended and
 * terminated workers log in too: `worker.status` tells the app which screen and toast to show
 * ("Account Under Review" opens the application's status); every other action stays refused.
 * An email without an account, an applicant's included, gets the wrong password's 401: a separate
 * answer would tell anyone which emails applied. The login screen says how to make the account.
 */
export const handler = http(routeByName('login-worker'), workerLoginSchema, async ({ body, event }) => {
  // Counted against this browser's device cookie for the email, or else per email, per address and
  // per both, whether or not the email exists (lib/auth/login.ts).
  const attempt = await beginLogin(event, 'worker', body.email);

  const worker = await workerWithCredentials(body.email, body.password);
  if (!worker) {
    logger.warn('Worker login failed', { requestId: event.requestContext.requestId });
    throw new UnauthorizedError('Invalid email or password');
  }

  const deviceCookie = await attempt.succeeded(worker.id);
  const { secret } = await sessions.start('worker', worker.id, worker.email);
  logger.info('Worker logged in', { workerId: worker.id, status: worker.status });
  // No photo URL here: this route may not read uploads; GET /api/workers/me carries it.
  return reply(200, { worker: toWorkerSelf(worker), token: secret }, { cookies: [deviceCookie] });
});
