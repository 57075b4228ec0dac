import { routeByName } from '../../shared/routes';
import { workerCreateAccountSchema } from '../../shared/schemas/auth';
import { deviceCookies } from '../common/auth/device-cookies';
import { LOGIN_SCOPE } from '../common/auth/login';
import { hashPassword } from '../common/auth/passwords';
import { sessions } from '../common/auth/sessions';
import { loginThrottle } from '../common/auth/throttle';
import { hashSecret } from '../common/auth/tokens';
import { clientNetwork } from '../common/client-address';
import { applicantAccounts } from './data/applicant-accounts';
import { passwordResets } from './data/password-resets';
import { ACCOUNT_LINK_REFUSED, NO_APPLICATION, workerAccountLinks } from './data/worker-account-links';
import { toWorkerSelf } from '../workers/data/workers';
import { ConflictError, ForbiddenError, GoneError } from '../common/errors';
import { http, reply } from '../common/http';
import { newId } from '../common/ids';
import { logger } from '../common/logger';

/** The throttle's scope for account links presented (lib/auth/throttle.ts). */
export const CREATE_ACCOUNT_SCOPE = 'worker-create-account';

/**
 * Sets the pro account's password with a single-use link mailed to the address the application
 * gave: the link, not a typed email, says whose account it is, so nobody makes an account for an
 * address whose mail they cannot read. The link is spent in the same transaction that creates the
 * account (of two submits at once, one makes it and the other hears the link was used). Whoever
 * applied (under review or approved) may create it; before the decision it signs in to
 * "Application Under Review" only (lib/data/applicant-accounts.ts). When an account exists for the
 * address already, the link replaces its password and, as a password reset does, ends every
 * session, device cookie and reset link of that account: the mailbox takes the account back.
 * Either way the new account is signed in. Each link presented is counted like a login attempt.
 */
export const handler = http(routeByName('create-worker-account'), workerCreateAccountSchema, async ({ body, event }) => {
  const address = clientNetwork(event);
  // Counted per link, per address and per both: the secret is what a guesser would be guessing.
  const attempt = await loginThrottle.begin(CREATE_ACCOUNT_SCOPE, { account: hashSecret(body.token), address });

  const found = await workerAccountLinks.find(body.token);
  if ('refused' in found) throw new GoneError(ACCOUNT_LINK_REFUSED[found.refused]);
  const { link } = found;

  const outcome = await applicantAccounts.setWithLink(link, await hashPassword(body.password), newId());
  if ('refused' in outcome) {
    if (outcome.refused === 'conflict') throw new ConflictError('This link was being used at the same moment elsewhere. Try again.');
    if (outcome.refused === 'no-application') throw new ForbiddenError(NO_APPLICATION);
    throw new GoneError(ACCOUNT_LINK_REFUSED[outcome.refused]);
  }
  await attempt.succeeded();

  const worker = 'created' in outcome ? outcome.created : outcome.replaced;
  if ('replaced' in outcome) {
    // Whoever made the account without the mailbox is signed out everywhere, and their links end.
    await sessions.endAllOf('worker', worker.id);
    await deviceCookies.endAllOf('worker', worker.id);
    await passwordResets.endAllOf({ role: 'worker', subjectId: worker.id });
    await loginThrottle.forgive(LOGIN_SCOPE.worker, { account: worker.email, address });
  }
  await workerAccountLinks.endAllOf(link.email, link.pk);

  const { secret } = await sessions.start('worker', worker.id, worker.email);
  logger.info('Worker account password set with a link', { workerId: worker.id, status: worker.status, replaced: 'replaced' in outcome });
  return reply(201, { worker: toWorkerSelf(worker), token: secret });
});
