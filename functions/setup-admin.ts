import { routeByName } from '../shared/routes';
import { adminSetupSchema } from '../shared/schemas/auth';
import { ownerSessionCookie } from './lib/auth/caller';
import { hashPassword } from './lib/auth/passwords';
import { sessions } from './lib/auth/sessions';
import { ALREADY_SET_UP, ownerRepo, toOwnerUser } from './lib/data/owner';
import { ConflictError } from './lib/errors';
import { http, reply } from './lib/http';
import { newId } from './lib/ids';
import { logger } from './lib/logger';

/**
 * The one-time owner setup. A finished setup is refused before any hashing, so the call cannot be
 * used to burn CPU; the conditional put is the real check, so two racing setups end with exactly
 * one owner and the other gets 409. The new owner is logged in at once.
 */
export const handler = http(routeByName('setup-admin'), adminSetupSchema, async ({ body }) => {
  if (await ownerRepo.find()) throw new ConflictError(ALREADY_SET_UP);
  const owner = await ownerRepo.create({
    id: newId(),
    username: body.username,
    passwordHash: await hashPassword(body.password),
  });
  const { secret } = await sessions.start('admin', owner.id, owner.username);
  logger.info('Owner account set up', { ownerId: owner.id });
  return reply(201, { message: 'Admin account created', user: toOwnerUser(owner) }, { cookies: [ownerSessionCookie(secret)] });
});
