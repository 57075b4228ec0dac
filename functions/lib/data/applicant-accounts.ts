import { emailClaimEntity, workerAccountEntity, workerApplicationEntity, workerEntity, type WorkerAccountItem } from '../../../shared/entities';
import { tableName } from '../clients';
import { applicationsRepo } from './applications';
import { conditionOf, isNew, putOf, updateOf } from './expressions';
import { stats, writeCounted } from './stats';
import { WriteCancelled } from './transact';
import { workerFromApplication } from './worker-admin';
import { workersRepo, type WorkerItem } from './workers';

/**
 * A worker's account, made with the email they applied with, before or after the owner decides.
 *
 * Before the decision there is no worker profile yet: making the account creates it from the
 * application, under review (`pending_review`, not verified), together with the login and the
 * email claim's workerId, in one write conditional on the application still being pending and the
 * claim naming no profile. The owner's approval then turns that very profile active (a rejection
 * turns it `rejected`). After an approval the profile exists without an account, and the account
 * is added to it. A write that loses to a decision or to another account made at the same moment
 * reads again and takes the other way, so whichever lands first there is one profile and one account.
 */

/** A pass that lost a race reads again; three lost passes in a row is not a race any more. */
const ACCOUNT_ATTEMPTS = 3;

export const applicantAccounts = {
  /**
   * Creates the account of the applicant or approved worker who applied with `email`: their
   * profile as it now is, or undefined when there is no such applicant or they have an account.
   */
  async create(email: string, passwordHash: string, newWorkerId: string): Promise<WorkerItem | undefined> {
    for (let attempt = 1; attempt <= ACCOUNT_ATTEMPTS; attempt++) {
      const claim = await applicationsRepo.findEmailClaim(email);
      if (!claim) return undefined;
      if (claim.workerId) {
        // Approved before the account (or an account already made): the profile takes its login.
        const worker = await workersRepo.findCurrent(claim.workerId);
        if (!worker || worker.hasAccount) return undefined;
        return (await workersRepo.createAccount(worker.id, passwordHash)) ? { ...worker, hasAccount: true } : undefined;
      }
      const application = await applicationsRepo.findWorkerApplication(claim.applicationId);
      if (!application || application.status === 'rejected') return undefined;
      // Approved between the two reads: the claim names the new profile now.
      if (application.status === 'approved') continue;

      const now = new Date().toISOString();
      const worker = workerFromApplication(application, newWorkerId, now, 'applicantAccount');
      const account: WorkerAccountItem = {
        ...workerAccountEntity.key(worker.id),
        entity: 'worker-account',
        workerId: worker.id,
        passwordHash,
        createdAt: now,
      };
      try {
        await writeCounted([
          { Put: putOf(workerAccountEntity, account, isNew) },
          { Put: putOf(workerEntity, worker, isNew) },
          {
            Update: updateOf(emailClaimEntity, emailClaimEntity.key(email), {
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
        ]);
        return worker;
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
      }
    }
    return undefined;
  },
};
