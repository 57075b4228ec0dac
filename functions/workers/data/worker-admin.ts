import { averageRating } from '../../../shared/schemas/review-rules';
import type { WorkerAdminView, WorkerStatus } from '../../../shared/schemas/worker';
import { emailClaimEntity, workerApplicationEntity, workerEntity } from '../../../shared/entities';
import { ConflictError, NotFoundError } from '../../common/errors';
import { applicationsRepo, type WorkerApplicationItem } from '../../applications/data/applications';
import { conditionOf, isNew, putOf, updateOf } from '../../common/data/expressions';
import { tableName } from '../../common/clients';
import { queryAllOf } from '../../common/data/query';
import { readMergedPage } from '../../common/data/page';
import type { Page, PageQuery } from '../../../shared/schemas/page';
import { WriteCancelled } from '../../common/data/transact';
import { jobsRepo, RELEASED_WITH_THE_PRO, type JobItem } from '../../jobs/data/jobs';
import type { JobEventActor } from '../../jobs/data/job-history';
import { workersRepo, type WorkerItem } from './workers';
import { stats, writeCounted } from '../../owner/data/stats';
import { applicationApproved, applicationRejected } from '../../mail/messages/applicants';
import { MAILED_ACCOUNT_LINK_SECONDS } from '../../mail/messages/worker-accounts';
import { outboxPut } from '../../mail/data/mail';
import { workerAccountLinks } from '../../identity/data/worker-account-links';
import { declareTableUse } from '../../../shared/entities';

/** The owner's operations on workers: approve or reject applications, list, suspend, reinstate, terminate. */

const ALREADY_REVIEWED = 'This application has already been reviewed.';
const APPLICATION_NOT_FOUND = 'No application with this id.';
const WORKER_NOT_FOUND = 'No worker with this id.';

/** The owner's status changes: from which statuses each may be made, and the refusal otherwise. */
export type StatusChange = 'suspend' | 'reinstate' | 'terminate';
const statusChanges: Record<StatusChange, { from: readonly WorkerStatus[]; to: WorkerStatus; refused: string }> = {
  suspend: { from: ['active'], to: 'suspended', refused: 'Only an active worker can be suspended.' },
  reinstate: { from: ['suspended'], to: 'active', refused: 'Only a suspended worker can be reinstated.' },
  terminate: { from: ['active', 'suspended'], to: 'terminated', refused: 'This worker cannot be terminated: they are already terminated or still under review.' },
};

export function toWorkerAdminView(item: WorkerItem): WorkerAdminView {
  return {
    id: item.id,
    fullName: item.fullName,
    email: item.email,
    phone: item.phone,
    createdAt: item.createdAt,
    yearsExp: item.yearsExp,
    hourlyRate: item.hourlyRate,
    categories: item.categories,
    status: item.status,
    isAvailable: item.isAvailable,
    strikes: item.strikes,
    statusReason: item.statusReason ?? null,
    statusChangedAt: item.statusChangedAt ?? null,
  };
}

/**
 * The applicant's profile, from their application: active and verified when the approval creates it
 * (no account yet), or under review with their account when they sign up before the owner decides
 * (`applicantAccount`: not verified until approved).
 */
export function workerFromApplication(
  application: WorkerApplicationItem,
  workerId: string,
  now: string,
  as: 'approved' | 'applicantAccount' = 'approved',
): WorkerItem {
  const approved = as === 'approved';
  return {
    ...workerEntity.key(workerId),
    ...workerEntity.indexes.all.keyFor(workerEntity.key(workerId), now),
    entity: 'worker',
    id: workerId,
    applicationId: application.id,
    fullName: application.fullName,
    email: application.emailAddress.toLowerCase(),
    phone: application.phoneNumber,
    address: application.homeAddress,
    status: approved ? 'active' : 'pending_review',
    strikes: 0,
    isVerified: approved,
    isAvailable: false,
    isClockedIn: false,
    lastClockIn: null,
    yearsExp: application.yearsExperience,
    categories: application.servicesProvided,
    hourlyRate: application.hourlyRate,
    workerType: null,
    profilePhotoKey: null,
    hasAccount: !approved,
    createdAt: now,
    updatedAt: now,
  };
}

function reviewUpdate(
  application: WorkerApplicationItem,
  status: 'approved' | 'rejected',
  now: string,
  decision: { workerId?: string; notes?: string } = {},
) {
  const { workerId, notes } = decision;
  return updateOf(workerApplicationEntity, workerApplicationEntity.key(application.id), {
    set: {
      status,
      reviewedAt: now,
      ...(status === 'approved' ? { approvedAt: now } : {}),
      ...(workerId ? { workerId } : {}),
      ...(notes ? { reviewNotes: notes } : {}),
      // Among the applications of its new status.
      ...workerApplicationEntity.indexes.byStatus.key(status, application.submittedAt),
    },
    if: (c) => c.eq('status', 'pending'),
  });
}

/**
 * A status change that met the pro's job moving (an accept, Start Work, the arrival timer) reads
 * again; three in a row means the job keeps moving, and the owner looks again.
 */
const STATUS_CHANGE_ATTEMPTS = 3;
const JOB_MOVING = 'This pro\'s job changed while you decided. Look at the pro again and retry.';

/** The history's word for a job released because the owner took its pro off. */
const releaseDetail = (change: StatusChange) =>
  `Back to dispatch: the owner ${change === 'terminate' ? 'terminated' : 'suspended'} the pro (no strike).`;

/** The job the pro holds that goes back to dispatch with a suspension or termination, if any. */
async function releasableJob(worker: WorkerItem): Promise<JobItem | null> {
  if (!worker.activeJobId) return null;
  const job = await jobsRepo.findById(worker.activeJobId);
  return job && job.acceptedBy === worker.id && RELEASED_WITH_THE_PRO.includes(job.state) ? job : null;
}

/** A decision that lost a race to an account being made reads again; three in a row means something else. */
const DECISION_ATTEMPTS = 3;

/** The profile of an applicant who made their account before the decision (through the email claim). */
async function applicantProfile(application: WorkerApplicationItem): Promise<WorkerItem | undefined> {
  const claim = await applicationsRepo.findEmailClaim(application.emailAddress);
  if (!claim?.workerId || claim.applicationId !== application.id) return undefined;
  return workersRepo.findCurrent(claim.workerId);
}

async function pendingApplication(id: string): Promise<WorkerApplicationItem> {
  const application = await applicationsRepo.findWorkerApplication(id);
  if (!application) throw new NotFoundError(APPLICATION_NOT_FOUND);
  if (application.status !== 'pending') throw new ConflictError(ALREADY_REVIEWED);
  return application;
}

/** Workers by status and availability, and the rating over every review, counted from the profiles given. */
export interface WorkerFigures {
  workers: { active: number; pendingReview: number; terminated: number; available: number };
  averageRating: number | null;
  reviewCount: number;
  workersOnProbation: number;
}

/**
 * Counts by status and availability, and the rating over every review: the sum of the workers'
 * running totals (so each review weighs the same, whoever it is about), one decimal, null with none.
 */
export function workerFigures(workers: readonly WorkerItem[]): WorkerFigures {
  const of = (status: WorkerStatus) => workers.filter((w) => w.status === status).length;
  const ratingSum = workers.reduce((sum, w) => sum + (w.ratingSum ?? 0), 0);
  const reviewCount = workers.reduce((sum, w) => sum + (w.ratingCount ?? 0), 0);
  return {
    workers: {
      active: of('active'),
      pendingReview: of('pending_review'),
      terminated: of('terminated'),
      available: workers.filter((w) => w.status === 'active' && w.isAvailable).length,
    },
    averageRating: averageRating(ratingSum, reviewCount),
    reviewCount,
    workersOnProbation: workers.filter((w) => w.probationSince).length,
  };
}

export const workerAdmin = {
  /**
   * Approves a pending application, in one write conditional on it still being pending (of two
   * racing approvals exactly one succeeds; the other gets 409): its status, and the worker profile.
   * An applicant who already made their account has a profile under review (found through the
   * email claim): the same write turns that profile active and verified, conditional on it still
   * being under review. Otherwise the write creates the profile (active, no account yet) and sets
   * the claim's workerId, conditional on the claim having none: an account made between the read
   * and the write refuses it, and the next pass approves that account's profile instead. So
   * approval racing account creation leaves one profile and one account, whichever lands first.
   */
  async approve(applicationId: string, workerId: string): Promise<WorkerItem> {
    for (let attempt = 1; ; attempt++) {
      const application = await pendingApplication(applicationId);
      const applicant = await applicantProfile(application);
      const now = new Date().toISOString();
      try {
        if (applicant) {
          await writeCounted([
            { Update: reviewUpdate(application, 'approved', now, { workerId: applicant.id }) },
            {
              Update: updateOf(workerEntity, workerEntity.key(applicant.id), {
                set: { status: 'active', isVerified: true, updatedAt: now },
                if: (c) => c.eq('status', 'pending_review'),
              }),
            },
            stats.applicationAndWorkerMoved({ from: 'pending', to: 'approved' }, { from: 'pending_review', to: 'active' }),
            // The welcome mail goes in the same write as the decision: a refused approval (409) writes none.
            outboxPut(applicationApproved(application, { hasAccount: true })),
          ]);
          return { ...applicant, status: 'active', isVerified: true, updatedAt: now };
        }
        const worker = workerFromApplication(application, workerId, now);
        await writeCounted([
          { Update: reviewUpdate(application, 'approved', now, { workerId }) },
          { Put: putOf(workerEntity, worker, isNew) },
          {
            Update: updateOf(emailClaimEntity, emailClaimEntity.key(application.emailAddress), {
              set: { workerId },
              if: (c) => c.and(c.eq('applicationId', application.id), c.notExists('workerId')),
            }),
          },
          stats.applicationAndWorkerMoved({ from: 'pending', to: 'approved' }, { from: null, to: worker.status }),
          // A fresh single-use link to make the account, to the application's address only.
          ...workerAccountLinks.writes(application.emailAddress, MAILED_ACCOUNT_LINK_SECONDS, (link) =>
            applicationApproved(application, { hasAccount: false, accountSecret: link.secret }),
          ),
        ]);
        return worker;
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
        // Decided meanwhile: the next read answers 409. An account made meanwhile: the next pass approves it.
        if (attempt >= DECISION_ATTEMPTS) throw new ConflictError(ALREADY_REVIEWED);
      }
    }
  },

  /**
   * Rejects a pending application with the owner's notes (the applicant reads them). Its email
   * claim stays: the same email cannot simply reapply. An applicant's account made before the
   * decision turns 'rejected' in the same write (it still signs in, to read the notes); without
   * one, the write is conditional on the claim still naming no profile, so an account made at
   * the same moment is never left under review beside a rejected application.
   * Answers the applicant's profile when they have an account.
   */
  async reject(applicationId: string, notes: string): Promise<WorkerItem | undefined> {
    for (let attempt = 1; ; attempt++) {
      const application = await pendingApplication(applicationId);
      const applicant = await applicantProfile(application);
      const now = new Date().toISOString();
      try {
        await writeCounted([
          { Update: reviewUpdate(application, 'rejected', now, { workerId: applicant?.id, notes }) },
          ...(applicant
            ? [
                {
                  Update: updateOf(workerEntity, workerEntity.key(applicant.id), {
                    set: { status: 'rejected', updatedAt: now },
                    if: (c) => c.eq('status', 'pending_review'),
                  }),
                },
                stats.applicationAndWorkerMoved({ from: 'pending', to: 'rejected' }, { from: 'pending_review', to: 'rejected' }),
              ]
            : [
                stats.applicationStatusMoved('worker', 'pending', 'rejected'),
                {
                  ConditionCheck: {
                    TableName: tableName,
                    Key: emailClaimEntity.key(application.emailAddress),
                    ...conditionOf(emailClaimEntity, (c) => c.notExists('workerId')),
                  },
                },
              ]),
          outboxPut(applicationRejected(application, notes)),
        ]);
        return applicant ? { ...applicant, status: 'rejected', updatedAt: now } : undefined;
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
        if (attempt >= DECISION_ATTEMPTS) throw new ConflictError(ALREADY_REVIEWED);
      }
    }
  },

  /** Every worker, oldest first, by the gsi2 partitions (never a Scan). */
  async listAll(): Promise<WorkerItem[]> {
    return queryAllOf(workerEntity.indexes.all.ranges());
  },

  /** The owner's figures about workers, from the same Query as the list. */
  async analytics(): Promise<WorkerFigures> {
    return workerFigures(await workerAdmin.listAll());
  },

  /** One page of the workers, oldest first, optionally of one status (a filter over the same Query). */
  async listPage(page: PageQuery, status?: WorkerStatus): Promise<Page<WorkerItem>> {
    return readMergedPage(workerEntity.indexes.all.ranges(), status ? { filter: (c) => c.eq('status', status) } : {}, page);
  },

  /**
   * The owner suspends, reinstates or terminates a worker, any time the worker's status allows it,
   * with a reason the pro is shown: one write conditional on the status read (of two racing changes
   * one wins, the other gets 409). Suspending or terminating takes them off call; reinstating leaves
   * their strikes as they are (the next one that reaches the limit suspends them again). The caller
   * ends their sessions and updates the dispatch index.
   *
   * A pro suspended or terminated while holding a job the work has not started on (RELEASED_WITH_THE_PRO)
   * could no longer do it: the same write sends the job back to dispatch, without a strike, recorded
   * in its history as the owner's (`released`: the job as it was, for the caller to tell the customer
   * and search again). The write is conditional on the job the pro held as read (none, or this one),
   * so an accept, a Start Work, a completion or the arrival timer landing in between refuses it and
   * the change reads again: of the timer and the owner, one outcome, and a strike only when the timer
   * landed first. Work in progress stays with the pro for the owner to settle.
   */
  async changeStatus(
    workerId: string,
    change: StatusChange,
    input: { reason: string; by: string; actor: JobEventActor; now: string },
  ): Promise<{ worker: WorkerItem; released: JobItem | null }> {
    const rule = statusChanges[change];
    const { now } = input;
    for (let attempt = 1; ; attempt++) {
      const worker = await workersRepo.findCurrent(workerId);
      if (!worker) throw new NotFoundError(WORKER_NOT_FOUND);
      if (!rule.from.includes(worker.status)) throw new ConflictError(rule.refused);
      const takenOff = rule.to !== 'active';
      const released = takenOff ? await releasableJob(worker) : null;
      try {
        await writeCounted([
          {
            Update: updateOf(workerEntity, workerEntity.key(workerId), {
              set: {
                status: rule.to,
                statusReason: input.reason,
                statusChangedAt: now,
                statusChangedBy: input.by,
                updatedAt: now,
                ...(takenOff ? { isAvailable: false } : {}),
                ...(rule.to === 'terminated' ? { terminatedAt: now } : {}),
              },
              ...(released ? { remove: ['activeJobId' as const] } : {}),
              if: (c) =>
                takenOff
                  ? c.and(c.eq('status', worker.status), worker.activeJobId ? c.eq('activeJobId', worker.activeJobId) : c.notExists('activeJobId'))
                  : c.eq('status', worker.status),
            }),
          },
          stats.workerStatusMoved(worker.status, rule.to),
          ...(released
            ? jobsRepo.releaseActions({ jobId: released.id, workerId, actor: input.actor, detail: releaseDetail(change), now })
            : []),
        ]);
        return { worker: (await workersRepo.findCurrent(workerId)) ?? worker, released };
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
        // The status changed (the next read answers 409), or the job the pro held did (read again).
        if (attempt >= STATUS_CHANGE_ATTEMPTS) {
          const current = await workersRepo.findCurrent(workerId);
          throw new ConflictError(current && rule.from.includes(current.status) ? JOB_MOVING : rule.refused);
        }
      }
    }
  },
};


/** The owner's jobs moved to their own module; still answered here for callers that read counts from it. */
export { ownerJobs } from '../../owner/data/owner-jobs';

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [emailClaimEntity, workerApplicationEntity, workerEntity], writes: [emailClaimEntity, workerApplicationEntity, workerEntity] });
