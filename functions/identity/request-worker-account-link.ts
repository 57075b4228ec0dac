import { routeByName } from '../../shared/routes';
import { workerAccountLinkRequestSchema } from '../../shared/schemas/auth';
import { loginThrottle } from '../common/auth/throttle';
import { clientNetwork } from '../common/client-address';
import { applicantAccounts } from './data/applicant-accounts';
import { workerAccountLinks } from './data/worker-account-links';
import { http, reply } from '../common/http';
import { logger } from '../common/logger';
import { ACCOUNT_LINK_SECONDS, workerAccountLink } from '../mail/messages/worker-accounts';

/** The throttle's scope for account-link requests (lib/auth/throttle.ts). */
export const ACCOUNT_LINK_REQUEST_SCOPE = 'worker-account-link';

/** The one answer, whether or not the address applied: it never tells who applied. */
export const ACCOUNT_LINK_REQUESTED =
  "If an application under review or approved uses that address, we've sent it a link to set up the account. It works for 60 minutes.";

/**
 * The signup page without a link: mails a single-use link that sets the pro account's password to
 * the address, when an application under review or approved (or an account) uses it. Only the
 * mailbox gets the link, so knowing someone's address makes no account. Counted like a login (per
 * address and email, per address, per email), so it can be neither a way to flood someone's mailbox
 * nor to test addresses in bulk; the answer is the same for an address nobody applied with.
 */
export const handler = http(routeByName('request-worker-account-link'), workerAccountLinkRequestSchema, async ({ body, event }) => {
  await loginThrottle.begin(ACCOUNT_LINK_REQUEST_SCOPE, { account: body.email, address: clientNetwork(event) });

  const subject = await applicantAccounts.subjectOf(body.email);
  if (subject.eligible) {
    await workerAccountLinks.issue(body.email, ACCOUNT_LINK_SECONDS, (link) =>
      workerAccountLink({ ...link, to: body.email, name: subject.name ?? 'there', hasAccount: subject.hasAccount }),
    );
  } else {
    await workerAccountLinks.issueNone();
  }
  logger.info('Worker account link requested', { sent: subject.eligible });
  return reply(200, { message: ACCOUNT_LINK_REQUESTED });
});

