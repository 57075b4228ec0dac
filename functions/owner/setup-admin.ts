import { routeByName } from '../../shared/routes';
import { adminSetupSchema } from '../../shared/schemas/auth';
import { ownerSessionCookie } from '../common/auth/caller';
import { hashPassword } from '../common/auth/passwords';
import { sessions } from '../common/auth/sessions';
import { loginThrottle } from '../common/auth/throttle';
import { sameSecret } from '../common/auth/tokens';
import { clientNetwork } from '../common/client-address';
import { ALREADY_SET_UP, ownerRepo, toOwnerUser } from '../identity/data/owner';
import { ConflictError, ForbiddenError } from '../common/errors';
import { http, reply } from '../common/http';
import { newId } from '../common/ids';
import { logger } from '../common/logger';
import { readSecretFields } from '../common/secrets';

/** The throttle's scope for setup codes, and the one "account" they guess at (lib/auth/throttle.ts). */
export const SETUP_SCOPE = 'admin-setup';
const SETUP_ACCOUNT = 'owner-setup';

export const WRONG_SETUP_CODE =
  'That setup code is not right. Find it in the console where npm start runs (on a laptop) or with the command in the stack output SetupCodeCommand (in AWS).';

async function rightCode(presented: string): Promise<boolean> {
  const { code } = await readSecretFields('setup', ['code']);
  if (sameSecret(presented, code)) return true;
  // The operator may have changed the code since this container read it.
  return sameSecret(presented, (await readSecretFields('setup', ['code'], { fresh: true })).code);
}

/**
 * The one-time owner setup, for whoever holds the setup code the deployment produced (otherwise
 * whoever reached the page first after a deploy would own the marketplace). A finished setup is
 * refused before anything else, as before; wrong codes are counted like wrong passwords (5 per
 * address, 20 per address, 50 from anywhere in 15 minutes, then 429) and cost no hashing. The
 * conditional put is the real check, so two racing setups end with exactly one owner and the other
 * gets 409. The new owner is logged in at once. Their email (lower-case) is where their mail and a
 * password-reset link go.
 */
export const handler = http(routeByName('setup-admin'), adminSetupSchema, async ({ body, event }) => {
  if (await ownerRepo.find()) throw new ConflictError(ALREADY_SET_UP);
  const attempt = await loginThrottle.begin(SETUP_SCOPE, { account: SETUP_ACCOUNT, address: clientNetwork(event) });
  if (!(await rightCode(body.setupCode))) {
    logger.warn('Owner setup refused: wrong setup code');
    throw new ForbiddenError(WRONG_SETUP_CODE);
  }
  await attempt.succeeded();
  const owner = await ownerRepo.create({
    id: newId(),
    username: body.username,
    email: body.email,
    passwordHash: await hashPassword(body.password),
  });
  const { secret } = await sessions.start('admin', owner.id, owner.username);
  logger.info('Owner account set up', { ownerId: owner.id });
  return reply(201, { message: 'Admin account created', user: toOwnerUser(owner) }, { cookies: [ownerSessionCookie(secret)] });
});
