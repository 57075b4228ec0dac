import { routeByName } from '../../shared/routes';
import { workerAccountLinkCheckSchema } from '../../shared/schemas/auth';
import { applicantAccounts } from './data/applicant-accounts';
import { ACCOUNT_LINK_REFUSED, NO_APPLICATION, workerAccountLinks } from './data/worker-account-links';
import { ForbiddenError, GoneError } from '../common/errors';
import { http } from '../common/http';

/**
 * The signup page opened from a mailed link, before any password is typed: the address the link is
 * for, and whether an account already uses it, so the page can say that setting a password there
 * replaces the old one. Only the link's holder learns either, and they read that mailbox. Reads only.
 */
export const handler = http(routeByName('check-worker-account-link'), workerAccountLinkCheckSchema, async ({ body }) => {
  const found = await workerAccountLinks.find(body.token);
  if ('refused' in found) throw new GoneError(ACCOUNT_LINK_REFUSED[found.refused]);
  const subject = await applicantAccounts.subjectOf(found.link.email);
  if (!subject.eligible) throw new ForbiddenError(NO_APPLICATION);
  return { email: found.link.email, accountExists: subject.hasAccount };
});
