import { routeByName } from '../shared/routes';
import { workerLoginSchema } from '../shared/schemas/auth';
import { spendVerifyTime, verifyPassword } from './lib/auth/passwords';
import { sessions } from './lib/auth/sessions';
import { loginThrottle } from './lib/auth/throttle';
import { toWorkerSelf, workersRepo, type WorkerItem } from './lib/data/workers';
import { UnauthorizedError } from './lib/errors';
import { http } from './lib/http';
import { logger } from './lib/logger';

const SCOPE = 'worker-login';


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
 * A new bearer token at every login (only its hash is stored). Pending and terminated workers log
 * in too: `worker.status` tells the app which screen and toast to show; every action stays refused.
 */
export const handler = http(routeByName('login-worker'), workerLoginSchema, async ({ body, event }) => {
  // Counted per email, per address and per both (lib/auth/throttle.ts), whether or not the email exists.
  const attempt = await loginThrottle.begin(SCOPE, { account: body.email, address: event.requestContext.http.sourceIp });

  const worker = await workerWithCredentials(body.email, body.password);
  if (!worker) {
    logger.warn('Worker login failed', { requestId: event.requestContext.requestId });
    throw new UnauthorizedError('Invalid email or password');
  }

  await attempt.succeeded();
  const { secret } = await sessions.start('worker', worker.id, worker.email);
  logger.info('Worker logged in', { workerId: worker.id, status: worker.status });
  // No photo URL here: this route may not read uploads; GET /api/workers/me carries it.
  return { worker: toWorkerSelf(worker), token: secret };
});
