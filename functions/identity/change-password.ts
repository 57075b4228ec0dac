import { routeByName } from '../../shared/routes';
import { changePasswordSchema } from '../../shared/schemas/auth';
import { deviceCookies } from '../common/auth/device-cookies';
import { hashPassword, verifyPassword } from '../common/auth/passwords';
import { sessions } from '../common/auth/sessions';
import { loginThrottle } from '../common/auth/throttle';
import { clientNetwork } from '../common/client-address';
import { ownerRepo } from './data/owner';
import { passwordResets } from './data/password-resets';
import { UnauthorizedError, ValidationError } from '../common/errors';
import { http, reply } from '../common/http';
import { logger } from '../common/logger';

/** Wrong current passwords are throttled too: a borrowed session cannot guess its way in. */
const SCOPE = 'change-password';

export const handler = http(routeByName('change-password'), changePasswordSchema, async ({ body, caller, event }) => {
  const ownerId = caller.id;
  const owner = await ownerRepo.find();
  // A session outliving its owner (or a local dev-login one) has no password to change.
  if (!owner || owner.id !== ownerId) throw new UnauthorizedError('Log in as the owner to continue.');

  const attempt = await loginThrottle.begin(SCOPE, { account: ownerId, address: clientNetwork(event) });
  if (!(await verifyPassword(body.currentPassword, owner.passwordHash))) {
    throw new ValidationError('Current password is incorrect', { currentPassword: 'Current password is incorrect' });
  }
  await attempt.succeeded();
  if (body.newPassword === body.currentPassword) {
    const message = 'Choose a password different from the current one';
    throw new ValidationError(message, { newPassword: message });
  }

  await ownerRepo.updatePasswordHash(owner.id, owner.passwordHash, await hashPassword(body.newPassword));
  await sessions.endAllOf('admin', owner.id, caller.sessionSecret);
  // A device cookie spares its browser the lockouts, and anyone who logged in with the old password
  // holds one: they all end. This browser, which just proved the new password, gets a new one.
  await deviceCookies.endAllOf('admin', owner.id);
  const deviceCookie = await deviceCookies.issue('admin', owner.id, owner.username);
  // A reset link mailed before would set the password again: whoever reads that mail must not undo this.
  await passwordResets.endAllOf({ role: 'admin', subjectId: owner.id });
  logger.info('Owner password changed', { ownerId: owner.id });
  return reply(200, { message: 'Password changed' }, { cookies: [deviceCookie] });
});
