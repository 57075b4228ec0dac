import { routeByName } from '../../shared/routes';
import { passwordResetRequestSchema } from '../../shared/schemas/auth';
import { loginThrottle } from '../common/auth/throttle';
import { clientNetwork } from '../common/client-address';
import { applicationsRepo } from '../applications/data/applications';
import { ownerRepo } from './data/owner';
import { passwordResets, type ResetSubject } from './data/password-resets';
import { workersRepo } from '../workers/data/workers';
import { http, reply } from '../common/http';
import { newId } from '../common/ids';
import { logger } from '../common/logger';
import { passwordReset, RESET_LINK_SECONDS } from '../mail/messages/passwords';

/** The throttle's scope for reset requests (lib/auth/throttle.ts). */
export const RESET_REQUEST_SCOPE = 'password-reset';

/** The one answer, whether or not an account uses the address: it never tells who has an account. */
export const RESET_REQUESTED = "If an account uses that address, we've sent a link. It works for 30 minutes.";

interface ResetAccount extends ResetSubject {
  to: string;
  name: string;
}

/**
 * The accounts that sign in with `email`: the owner, whose email it is, and a pro whose login exists
 * (whatever their status: every status with an account signs in). The same four reads whether or not
 * there is anyone (a pro's two are made for an id nobody has when the address names no pro).
 */
async function accountsUsing(email: string): Promise<ResetAccount[]> {
  const [owner, claim] = await Promise.all([ownerRepo.find(), applicationsRepo.findEmailClaim(email)]);
  const workerId = claim?.workerId ?? newId();
  const [worker, passwordHash] = await Promise.all([workersRepo.findCurrent(workerId), workersRepo.passwordHashOf(workerId)]);
  const accounts: ResetAccount[] = [];
  if (owner?.email && owner.email === email) accounts.push({ role: 'admin', subjectId: owner.id, to: owner.email, name: owner.username });
  if (claim?.workerId && worker && passwordHash) accounts.push({ role: 'worker', subjectId: worker.id, to: worker.email, name: worker.fullName });
  return accounts;
}

/**
 * "Forgot password?": mails each account using the address a single-use link that sets its password
 * (30 minutes). Counted like a login (per address and email, per address, per email), so it can be
 * neither a way to flood someone's mailbox nor to test addresses in bulk. Older links keep working
 * until they expire or one of them is used: mail can arrive out of order, and whichever the person
 * opens should work. The answer and the work are the same for an address nobody uses.
 */
export const handler = http(routeByName('request-password-reset'), passwordResetRequestSchema, async ({ body, event }) => {
  await loginThrottle.begin(RESET_REQUEST_SCOPE, { account: body.email, address: clientNetwork(event) });

  const accounts = await accountsUsing(body.email);
  if (accounts.length === 0) await passwordResets.issueNone();
  for (const account of accounts) {
    await passwordResets.issue(account, RESET_LINK_SECONDS, (link) => passwordReset({ ...link, role: account.role, to: account.to, name: account.name }));
  }
  logger.info('Password reset requested', { links: accounts.length, roles: accounts.map((a) => a.role).join(',') });
  return reply(200, { message: RESET_REQUESTED });
});
