import { routeByName } from '../../shared/routes';
import { ownerEmailSchema } from '../../shared/schemas/auth';
import { verifyPassword } from '../common/auth/passwords';
import { loginThrottle } from '../common/auth/throttle';
import { clientNetwork } from '../common/client-address';
import { ownerRepo } from '../identity/data/owner';
import { passwordResets } from '../identity/data/password-resets';
import { UnauthorizedError, ValidationError } from '../common/errors';
import { http, reply } from '../common/http';
import { logger } from '../common/logger';

/** Wrong current passwords are throttled, as on a password change: a borrowed session cannot guess its way in. */
const SCOPE = 'owner-email';

/**
 * The owner adds or changes their email: where their mail goes and where a password-reset link is
 * sent. Whoever sets it could take the account over with a reset, so it takes the current password,
 * like a password change, and is stored only while that password is still the one checked.
 */
export const handler = http(routeByName('set-owner-email'), ownerEmailSchema, async ({ body, caller, event }) => {
  const owner = await ownerRepo.find();
  // A session outliving its owner (or a local dev-login one) has no account to give an email to.
  if (!owner || owner.id !== caller.id) throw new UnauthorizedError('Log in as the owner to continue.');

  const attempt = await loginThrottle.begin(SCOPE, { account: owner.id, address: clientNetwork(event) });
  if (!(await verifyPassword(body.currentPassword, owner.passwordHash))) {
    throw new ValidationError('Current password is incorrect', { currentPassword: 'Current password is incorrect' });
  }
  await attempt.succeeded();

  await ownerRepo.setEmail(owner.id, owner.passwordHash, body.email);
  // Links mailed to the address just replaced (perhaps because someone else reads it) end with it.
  await passwordResets.endAllOf({ role: 'admin', subjectId: owner.id });
  logger.info('Owner email set', { ownerId: owner.id });
  return reply(200, { message: 'Email saved. Password-reset links now go to this address.', email: body.email });
});
