import { routeByName } from '../../shared/routes';
import { passwordResetCompleteSchema } from '../../shared/schemas/auth';
import { deviceCookies } from '../common/auth/device-cookies';
import { LOGIN_SCOPE } from '../common/auth/login';
import { hashPassword } from '../common/auth/passwords';
import { sessions } from '../common/auth/sessions';
import { loginThrottle } from '../common/auth/throttle';
import { clientNetwork } from '../common/client-address';
import { ownerRepo } from './data/owner';
import { passwordResets, type PasswordResetItem, type ResetRefusal } from './data/password-resets';
import { workersRepo } from '../workers/data/workers';
import { ConflictError, GoneError } from '../common/errors';
import { http, reply } from '../common/http';
import { logger } from '../common/logger';

/** What the reset page shows for a link that sets no password, beside "Send a new link". */
export const LINK_REFUSED: Record<ResetRefusal, string> = {
  used: 'This link has already been used: each link sets a password once. Sign in with your new password, or send a new link.',
  expired: 'This link has expired: links work for 30 minutes. Send a new link.',
  unknown: 'This link does not work. Open it again from the mail exactly as it was sent, or send a new link.',
};

/** The name the login counters know the person by: a pro's email, the owner's username. */
async function loginNameOf(link: PasswordResetItem): Promise<string | undefined> {
  if (link.role === 'admin') return (await ownerRepo.find())?.username;
  return (await workersRepo.findById(link.subjectId))?.email;
}

/**
 * Sets a new password with a mailed link's secret. The link is spent and the new hash stored in one
 * transaction (of two submits at once, one sets the password and the other hears the link was used);
 * then every session of that person ends, however many pages of the index they fill, with every
 * device cookie earned with the old password and the other links mailed to them. Nobody is signed
 * in by it: whoever holds the link proves the mailbox, not the device, and signing in with the new
 * password on the login page (which the answer's role names) starts a session and device cookie
 * the usual way. This address's wrong-password count for the person is cleared, so the guesses that
 * made them ask do not lock them out of their own browser.
 */
export const handler = http(routeByName('reset-password'), passwordResetCompleteSchema, async ({ body, event }) => {
  const found = await passwordResets.find(body.token);
  if ('refused' in found) throw new GoneError(LINK_REFUSED[found.refused]);
  const { link } = found;

  const refused = await passwordResets.spend(link, await hashPassword(body.password));
  if (refused === 'conflict') throw new ConflictError('This link was being used at the same moment elsewhere. Try again.');
  if (refused) throw new GoneError(LINK_REFUSED[refused]);

  await sessions.endAllOf(link.role, link.subjectId);
  await deviceCookies.endAllOf(link.role, link.subjectId);
  await passwordResets.endAllOf(link, link.pk);
  const name = await loginNameOf(link);
  if (name) await loginThrottle.forgive(LOGIN_SCOPE[link.role], { account: name, address: clientNetwork(event) });
  logger.info('Password set with a reset link', { role: link.role, subjectId: link.subjectId });
  return reply(200, { message: 'Password changed. Sign in with your new password.', role: link.role });
});
