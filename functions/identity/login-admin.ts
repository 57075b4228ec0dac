import { routeByName } from '../../shared/routes';
import { adminLoginSchema } from '../../shared/schemas/auth';
import { ownerSessionCookie } from '../common/auth/caller';
import { beginLogin } from '../common/auth/login';
import { spendVerifyTime, verifyPassword } from '../common/auth/passwords';
import { sessions } from '../common/auth/sessions';
import { ownerRepo, toOwnerUser, type OwnerItem } from './data/owner';
import { UnauthorizedError } from '../common/errors';
import { http, reply } from '../common/http';
import { logger } from '../common/logger';

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
  // Counted against this browser's device cookie for the name, or else per name, per address and
  // per both, whether or not the name exists (lib/auth/login.ts).
  const attempt = await beginLogin(event, 'admin', body.username);

  const owner = await ownerWithCredentials(body.username, body.password);
  if (!owner) {
    logger.warn('Owner login failed', { requestId: event.requestContext.requestId });
    throw new UnauthorizedError('Invalid username or password');
  }

  const deviceCookie = await attempt.succeeded(owner.id);
  const { secret } = await sessions.start('admin', owner.id, owner.username);
  logger.info('Owner logged in', { ownerId: owner.id });
  return reply(200, { message: 'Login successful', user: toOwnerUser(owner) }, { cookies: [ownerSessionCookie(secret), deviceCookie] });
});
