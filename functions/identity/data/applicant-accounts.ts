import { emailClaimEntity, workerAccountEntity, workerApplicationEntity, workerEntity, type WorkerAccountItem } from '../../../shared/entities';
import { tableName } from '../../common/clients';
import { applicationsRepo } from '../../applications/data/applications';
import { conditionOf, isNew, putOf, updateOf } from '../../common/data/expressions';
import { stats, writeCounted } from '../../owner/data/stats';
import { WriteCancelled, type WriteAction } from '../../common/data/transact';
import { workerAccountLinks, type AccountLinkRefusal, type WorkerAccountLinkItem } from './worker-account-links';
import { workerFromApplication } from '../../workers/data/worker-admin';
import { workersRepo, type WorkerItem } from '../../workers/data/workers';
import { declareTableUse } from '../../../shared/entities';

/**
 * A worker's account, made with a single-use link mailed to the address the application gave
 * (lib/data/worker-account-links.ts), before or after the owner decides. Every write below spends
 * the link in the same transaction (its first action), so a link sets one password, once.
 *
 * Before the decision there is no worker profile yet: making the account creates it from the
 * application, under review (`pending_review`, not verified), together with the login and the
 * email claim's workerId, in one write conditional on the application still being pending and the
 * claim naming no profile. The owner's approval then turns that very profile active (a rejection
 * turns it `rejected`). After an approval the profile exists without an account, and the account
 * is added to it. When the profile has an account already (someone made it without the mailbox,
 * before links were needed), the link replaces its password: the mailbox decides whose it is. A
 * write that loses to a decision or to another account made at the same moment reads again and
 * takes the other way, so whichever lands first there is one profile and one account.
 */

/** A pass that lost a race reads again; three lost passes in a row is not a race any more. */
const ACCOUNT_ATTEMPTS = 3;

/** What the link did: made the account, replaced the password of the one there, or neither (and why). */
export type AccountOutcome =
  | { created: WorkerItem }
  | { replaced: WorkerItem }
  | { refused: AccountLinkRefusal | 'conflict' | 'no-application' };

/** Whether the address has an account now, and the profile it signs in to (for the signup page). */
export interface AccountLinkSubject {
  worker?: WorkerItem;
  hasAccount: boolean;
  /** An application under review or approved, or an account: what a link can set a password for. */
  eligible: boolean;
  /** The name the application or profile gives, for the mail's greeting. */
  name?: string;
}

function newAccount(workerId: string, passwordHash: string, now: string): WorkerAccountItem {
  return { ...workerAccountEntity.key(workerId), entity: 'worker-account', workerId, passwordHash, createdAt: now };
}

export const applicantAccounts = {
  /** Who a link for `email` would set a password for: the same reads the link's use makes. */
  async subjectOf(email: string): Promise<AccountLinkSubject> {
    const claim = await applicationsRepo.findEmailClaim(email);
    if (!claim) return { hasAccount: false, eligible: false };
    if (claim.workerId) {
      const worker = await workersRepo.findCurrent(claim.workerId);
      return { worker, hasAccount: Boolean(worker?.hasAccount), eligible: Boolean(worker), name: worker?.fullName };
    }
    const application = await applicationsRepo.findWorkerApplication(claim.applicationId);
    return { hasAccount: false, eligible: Boolean(application && application.status !== 'rejected'), name: application?.fullName };
  },

  /**
   * Sets the password of the account for the link's address with `passwordHash`: creates the
   * account (and, under review, its profile), or replaces the password of the account there.
   */
  async setWithLink(link: WorkerAccountLinkItem, passwordHash: string, newWorkerId: string): Promise<AccountOutcome> {
    const spend = workerAccountLinks.spend(link);
    for (let attempt = 1; attempt <= ACCOUNT_ATTEMPTS; attempt++) {
      const claim = await applicationsRepo.findEmailClaim(link.email);
      if (!claim) return { refused: 'no-application' };
      let writes: WriteAction[];
      let outcome: AccountOutcome;
      const now = new Date().toISOString();
      if (claim.workerId) {
        const worker = await workersRepo.findCurrent(claim.workerId);
        if (!worker) return { refused: 'no-application' };
        if (worker.hasAccount) {
          writes = [
            spend,
            {
              Update: updateOf(workerAccountEntity, workerAccountEntity.key(worker.id), {
                set: { passwordHash },
                if: (c) => c.eq('workerId', worker.id),
              }),
            },
          ];
          outcome = { replaced: worker };
        } else {
          // Approved before the account: the profile takes its login.
          writes = [
            spend,
            { Put: putOf(workerAccountEntity, newAccount(worker.id, passwordHash, now), isNew) },
            {
              Update: updateOf(workerEntity, workerEntity.key(worker.id), {
                set: { hasAccount: true, updatedAt: now },
                if: (c) => c.and(c.exists('pk'), c.eq('hasAccount', false), c.ne('status', 'pending_review')),
              }),
            },
          ];
          outcome = { created: { ...worker, hasAccount: true, updatedAt: now } };
        }
      } else {
        const application = await applicationsRepo.findWorkerApplication(claim.applicationId);
        if (!application || application.status === 'rejected') return { refused: 'no-application' };
        // Approved between the two reads: the claim names the new profile now.
        if (application.status === 'approved') continue;
        const worker = workerFromApplication(application, newWorkerId, now, 'applicantAccount');
        writes = [
          spend,
          { Put: putOf(workerAccountEntity, newAccount(worker.id, passwordHash, now), isNew) },
          { Put: putOf(workerEntity, worker, isNew) },
          {
            Update: updateOf(emailClaimEntity, emailClaimEntity.key(link.email), {
              set: { workerId: worker.id },
              if: (c) => c.and(c.eq('applicationId', application.id), c.notExists('workerId')),
            }),
          },
          {
            ConditionCheck: {
              TableName: tableName,
              Key: workerApplicationEntity.key(application.id),
              ...conditionOf(workerApplicationEntity, (c) => c.eq('status', 'pending')),
            },
          },
          stats.workerStatusMoved(null, worker.status),
        ];
        outcome = { created: worker };
      }
      try {
        await writeCounted(writes);
        return outcome;
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
        if (error.refusedAt(0)) {
          const refused = await workerAccountLinks.refusalAfterSpend(link);
          if (refused !== 'conflict') return { refused };
        }
      }
    }
    return { refused: 'conflict' };
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [emailClaimEntity, workerAccountEntity, workerApplicationEntity, workerEntity], writes: [emailClaimEntity, workerAccountEntity, workerApplicationEntity, workerEntity] });
