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
  // Counted per name, per address and per both (lib/auth/throttle.ts), whether or not the name exists.
  const attempt = await loginThrottle.begin(SCOPE, { account: body.username, address: event.requestContext.http.sourceIp });

  const owner = await ownerWithCredentials(body.username, body.password);
  if (!owner) {
    logger.warn('Owner login failed', { requestId: event.requestContext.requestId });
    throw new UnauthorizedError('Invalid username or password');
  }

  await attempt.succeeded();
  const { secret } = await sessions.start('admin', owner.id, owner.username);
  logger.info('Owner logged in', { ownerId: owner.id });
  return reply(200, { message: 'Login successful', user: toOwnerUser(owner) }, { cookies: [ownerSessionCookie(secret)] });
});
