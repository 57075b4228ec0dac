import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { routeByName } from '../shared/routes';
import { adminLoginSchema } from '../shared/schemas/auth';
import { ownerSessionCookie } from './lib/auth/caller';
import { spendVerifyTime, verifyPassword } from './lib/auth/passwords';
import { sessions } from './lib/auth/sessions';
import { loginThrottle } from './lib/auth/throttle';
import { ownerRepo, toOwnerUser, type OwnerItem } from './lib/data/owner';
import { UnauthorizedError } from './lib/errors';
import { http, reply } from './lib/http';
import { logger } from './lib/logger';

const SCOPE = 'admin-login';

/** Failures are counted per name and address, so a stranger's guessing cannot lock the owner out. */
export function throttleKey(username: string, event: APIGatewayProxyEventV2): string {
  return `${username.toLowerCase()}#${event.requestContext.http.sourceIp}`;
}

/** The owner whose name and password these are; an unknown name costs the same hashing time. */
async function ownerWithCredentials(username: string, password: string): Promise<OwnerItem | undefined> {
  const owner = await ownerRepo.find();
  if (!owner || owner.username !== username) {
    await spendVerifyTime(password);
    return undefined;
  }
  return (await verifyPassword(password, owner.passwordHash)) ? owner : undefined;
}

export const handler = http(routeByName('login-admin'), adminLoginSchema, async ({ body, event }) => {
  const key = throttleKey(body.username, event);
  await loginThrottle.check(SCOPE, key);

  const owner = await ownerWithCredentials(body.username, body.password);
  if (!owner) {
    await loginThrottle.recordFailure(SCOPE, key);
    logger.warn('Owner login failed', { requestId: event.requestContext.requestId });
    throw new UnauthorizedError('Invalid username or password');
  }

  await loginThrottle.clear(SCOPE, key);
  const { secret } = await sessions.start('admin', owner.id, owner.username);
  logger.info('Owner logged in', { ownerId: owner.id });
  return reply(200, { message: 'Login successful', user: toOwnerUser(owner) }, { cookies: [ownerSessionCookie(secret)] });
});
