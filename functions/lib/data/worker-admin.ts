import type { Analytics, JobAdminView } from '../../../shared/schemas/admin';
import { averageRating } from '../../../shared/schemas/review-rules';
import type { WorkerAdminView, WorkerStatus } from '../../../shared/schemas/worker';
import { emailClaimEntity, jobEntity, workerApplicationEntity, workerEntity } from '../../../shared/entities';
import { ConflictError, NotFoundError } from '../errors';
import { applicationsRepo, type WorkerApplicationItem } from './applications';
import { isNew, putOf, updateOf } from './expressions';
import { queryAll } from './query';
import { writeTogether, WriteCancelled } from './transact';
import { tryUpdate } from './write';
import { workersRepo, type WorkerItem } from './workers';

/** The owner's operations on workers: approve or reject applications, list, terminate. */

const ALREADY_REVIEWED = 'This application has already been reviewed.';
const APPLICATION_NOT_FOUND = 'No application with this id.';
const NOT_TERMINABLE = 'Only an active worker with 2 or more strikes can be terminated.';
/** The owner may terminate a worker (and sees the terminate button) at 2 or more strikes. */
export const STRIKES_TO_TERMINATE = 2;

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
  };
}

/** The approved applicant's profile: active and verified, not yet able to log in (no account). */
export function workerFromApplication(application: WorkerApplicationItem, workerId: string, now: string): WorkerItem {
  return {
    ...workerEntity.key(workerId),
    ...workerEntity.indexes.all.key(now),
    entity: 'worker',
    id: workerId,
    applicationId: application.id,
    fullName: application.fullName,
    email: application.emailAddress.toLowerCase(),
    phone: application.phoneNumber,
    address: application.homeAddress,
    status: 'active',
    strikes: 0,
    isVerified: true,
    isAvailable: false,
    isClockedIn: false,
    lastClockIn: null,
    yearsExp: application.yearsExperience,
    categories: application.servicesProvided,
    hourlyRate: application.hourlyRate,
    workerType: null,
    profilePhotoKey: null,
    hasAccount: false,
    createdAt: now,
    updatedAt: now,
  };
}

function reviewUpdate(application: WorkerApplicationItem, status: 'approved' | 'rejected', now: string, workerId?: string) {
  return updateOf(workerApplicationEntity, workerApplicationEntity.key(application.id), {
    set: {
      status,
      reviewedAt: now,
      ...(status === 'approved' ? { approvedAt: now, workerId } : {}),
      // Among the applications of its new status.
      ...workerApplicationEntity.indexes.byStatus.key(status, application.submittedAt),
    },
    if: (c) => c.eq('status', 'pending'),
  });
}

async function pendingApplication(id: string): Promise<WorkerApplicationItem> {
  const application = await applicationsRepo.findWorkerApplication(id);
  if (!application) throw new NotFoundError(APPLICATION_NOT_FOUND);
  if (application.status !== 'pending') throw new ConflictError(ALREADY_REVIEWED);
  return application;
}

/**
 * Counts by status and availability, and the rating over every review: the sum of the workers'
 * running totals (so each review weighs the same, whoever it is about), one decimal, null with none.
 */
export function workerFigures(workers: readonly WorkerItem[]): Pick<Analytics, 'workers' | 'averageRating' | 'reviewCount' | 'workersOnProbation'> {
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
   * Approves a pending application: its status, the new worker profile and the email claim's
   * workerId in one write, conditional on the application still being pending (of two racing
   * approvals exactly one creates a worker; the other gets 409).
   */
  async approve(applicationId: string, workerId: string): Promise<WorkerItem> {
    const application = await pendingApplication(applicationId);
    const now = new Date().toISOString();
    const worker = workerFromApplication(application, workerId, now);
    try {
      await writeTogether([
        { Update: reviewUpdate(application, 'approved', now, workerId) },
        { Put: putOf(workerEntity, worker, isNew) },
        {
          Update: updateOf(emailClaimEntity, emailClaimEntity.key(application.emailAddress), {
            set: { workerId },
            if: (c) => c.and(c.eq('applicationId', application.id), c.notExists('workerId')),
          }),
        },
      ]);
    } catch (error) {
      if (error instanceof WriteCancelled) throw new ConflictError(ALREADY_REVIEWED);
      throw error;
    }
    return worker;
  },

  /** Rejects a pending application. Its email claim stays: the same email cannot simply reapply. */
  async reject(applicationId: string): Promise<void> {
    const application = await pendingApplication(applicationId);
    const rejected = await tryUpdate(reviewUpdate(application, 'rejected', new Date().toISOString()));
    if (!rejected) throw new ConflictError(ALREADY_REVIEWED);
  },

  /** Every worker, oldest first, by the gsi2 partition (never a Scan). */
  async listAll(): Promise<WorkerItem[]> {
    return queryAll(workerEntity.indexes.all.range());
  },

  /** The owner's figures about workers, from the same Query as the list. */
  async analytics(): Promise<Pick<Analytics, 'workers' | 'averageRating' | 'reviewCount' | 'workersOnProbation'>> {
    return workerFigures(await workerAdmin.listAll());
  },

  /**
   * Terminates an active worker with 2 or more strikes, conditionally on both; the caller ends the
   * worker's sessions. Unknown id → 404; any other state → 409.
   */
  async terminate(workerId: string): Promise<void> {
    const worker = await workersRepo.findById(workerId);
    if (!worker) throw new NotFoundError('No worker with this id.');
    const now = new Date().toISOString();
    const terminated = await tryUpdate(
      updateOf(workerEntity, workerEntity.key(workerId), {
        set: { status: 'terminated', isAvailable: false, terminatedAt: now, updatedAt: now },
        if: (c) => c.and(c.eq('status', 'active'), c.ge('strikes', STRIKES_TO_TERMINATE)),
      }),
    );
    if (!terminated) throw new ConflictError(NOT_TERMINABLE);
  },
};


type JobLike = Partial<Record<keyof JobAdminView, unknown>> & { id: string; state: string };

function toJobAdminView(item: JobLike): JobAdminView {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    id: item.id,
    category: text(item.category),
    customerName: text(item.customerName),
    address: text(item.address),
    description: text(item.description),
    hourlyRate: num(item.hourlyRate),
    createdAt: text(item.createdAt),
    arrivedAt: text(item.arrivedAt),
    startedAt: text(item.startedAt),
    endedAt: text(item.endedAt),
    state: item.state,
    acceptedBy: text(item.acceptedBy),
    totalHours: num(item.totalHours),
  };
}

export const ownerJobs = {
  async listAll(): Promise<JobAdminView[]> {
    const items: JobLike[] = await queryAll(jobEntity.indexes.all.range());
    return items.map(toJobAdminView);
  },

  async countByState(): Promise<{ byState: Record<string, number>; total: number }> {
    const jobs = await ownerJobs.listAll();
    const byState: Record<string, number> = {};
    for (const job of jobs) byState[job.state] = (byState[job.state] ?? 0) + 1;
    return { byState, total: jobs.length };
  },
};
