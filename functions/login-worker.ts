import type { APIGatewayProxyEventV2 } from 'aws-lambda';
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

/** Failures are counted per email and address, so a stranger's guessing cannot lock a worker out. */
export function throttleKey(email: string, event: APIGatewayProxyEventV2): string {
  return `${email.toLowerCase()}#${event.requestContext.http.sourceIp}`;
}

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
  const key = throttleKey(body.email, event);
  await loginThrottle.check(SCOPE, key);

  const worker = await workerWithCredentials(body.email, body.password);
  if (!worker) {
    await loginThrottle.recordFailure(SCOPE, key);
    logger.warn('Worker login failed', { requestId: event.requestContext.requestId });
    throw new UnauthorizedError('Invalid email or password');
  }

  await loginThrottle.clear(SCOPE, key);
  const { secret } = await sessions.start('worker', worker.id, worker.email);
  logger.info('Worker logged in', { workerId: worker.id, status: worker.status });
  // No photo URL here: this route may not read uploads; GET /api/workers/me carries it.
  return { worker: toWorkerSelf(worker), token: secret };
});
