import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { averageRating, LOW_RATING, PROBATION_STREAK, type ReviewResult } from '../../../shared/schemas/review-rules';
import { jobEntity, workerEntity, workerProbationEntity, type WorkerProbationItem } from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { ConflictError, ForbiddenError, NotFoundError } from '../../common/errors';
import { logger } from '../../common/logger';
import { jobsRepo, type JobItem } from '../../jobs/data/jobs';
import { incrementFrom, isNew, putOf, updateOf } from '../../common/data/expressions';
import { queryAll } from '../../common/data/query';
import { WriteCancelled } from '../../common/data/transact';
import type { WorkerItem } from './workers';
import { stats, writeCounted } from '../../owner/data/stats';
import { jobHistory } from '../../jobs/data/job-history';
import { declareTableUse } from '../../../shared/entities';

/**
 * Reviews. A review lives on its job and moves the worker's
 * running totals in the same transaction, so the average can never count a review twice or miss
 * one. Only the job's customer reviews it, once, after the work is completed.
 */

export const REVIEW_JOB_NOT_FOUND = 'We could not find this job among yours.';
export const REVIEW_NOT_COMPLETED = 'You can review the work once it is completed.';
export const ALREADY_REVIEWED = 'You have already reviewed this job.';
export const REVIEW_OTHER_WORKER = 'This review is for another professional.';
export const PROBATION_REASON = 'Rated 2 stars or fewer 3 times in a row';

const reviewableStates: readonly JobItem['state'][] = ['completed', 'verified', 'paid'];

export type { WorkerProbationItem } from '../../../shared/entities';

export interface NewReview {
  jobId: string;
  customerId: string;
  rating: number;
  /** Trimmed; an empty text is not stored. */
  text?: string;
  reviewerName?: string;
  /** A worker the caller believes did the job: refused when it is someone else. */
  workerId?: string;
  now: string;
}

/** Why this customer may not review this job now, or undefined when they may. */
function refusal(job: JobItem | undefined, customerId: string, workerId?: string): Error | undefined {
  // Another customer's job is answered exactly as a missing one: its existence is not theirs to learn.
  if (!job || job.customerId !== customerId) return new NotFoundError(REVIEW_JOB_NOT_FOUND);
  if (!reviewableStates.includes(job.state) || !job.acceptedBy) return new ConflictError(REVIEW_NOT_COMPLETED);
  if (job.reviewedAt) return new ConflictError(ALREADY_REVIEWED);
  if (workerId && workerId !== job.acceptedBy) return new ForbiddenError(REVIEW_OTHER_WORKER);
  return undefined;
}

async function readWorker(id: string): Promise<WorkerItem | undefined> {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: workerEntity.key(id), ConsistentRead: true }));
  return out.Item as WorkerItem | undefined;
}

function reviewWrites(review: NewReview, workerId: string) {
  const { rating, now } = review;
  const text = review.text?.trim();
  const name = review.reviewerName?.trim();
  const low = rating <= LOW_RATING;
  return [
    {
      Update: updateOf(jobEntity, jobEntity.key(review.jobId), {
        // An empty text or name is not stored.
        set: { rating, reviewedAt: now, updatedAt: now, reviewText: text || undefined, reviewerName: name || undefined },
        if: (c) =>
          c.and(
            c.exists('pk'),
            c.eq('customerId', review.customerId),
            c.notExists('reviewedAt'),
            c.oneOf('state', ['completed', 'verified', 'paid']),
            c.eq('acceptedBy', workerId),
          ),
      }),
    },
    {
      Update: updateOf(workerEntity, workerEntity.key(workerId), {
        add: { ratingSum: rating, ratingCount: 1 },
        set: { lowRatingStreak: low ? incrementFrom(0) : 0, updatedAt: now },
        // ADD would otherwise create a stray item for a profile that is gone.
        if: (c) => c.exists('pk'),
      }),
    },
    // The owner's overall rating, moved with the review it counts.
    stats.reviewed(rating),
    jobHistory.putAction(review.jobId, {
      type: 'rated',
      actor: { role: 'customer', id: review.customerId, name: name || null },
      workerId,
      detail: `${rating} star${rating === 1 ? '' : 's'}`,
      at: now,
    }),
  ];
}

/**
 * The owner is told about a worker rated low PROBATION_STREAK times in a row: one active probation
 * record, claimed on the profile (probationSince) in the same write, so neither a retry nor two
 * reviews landing together can open a second one. Nothing is reset here: the owner decides.
 */
async function flagIfStreak(worker: WorkerItem, jobId: string, now: string): Promise<void> {
  if ((worker.lowRatingStreak ?? 0) < PROBATION_STREAK || worker.probationSince) return;
  const probation: WorkerProbationItem = {
    ...workerProbationEntity.key(worker.id, now),
    entity: 'worker-probation',
    workerId: worker.id,
    reason: PROBATION_REASON,
    startDate: now,
    endDate: null,
    status: 'active',
    reviewTrigger: jobId,
  };
  try {
    await writeCounted([
      { Put: putOf(workerProbationEntity, probation, isNew) },
      {
        Update: updateOf(workerEntity, workerEntity.key(worker.id), {
          set: { probationSince: now },
          if: (c) => c.and(c.exists('pk'), c.notExists('probationSince')),
        }),
      },
      stats.probationMoved(1),
    ]);
    logger.info('Worker put on probation', { workerId: worker.id, jobId });
  } catch (error) {
    // Someone else opened it first: one record is all the owner needs.
    if (!(error instanceof WriteCancelled)) throw error;
  }
}

/** Attempts at the review write when it loses only to a concurrent write that changed nothing it needs. */
const ATTEMPTS = 3;

export const reviewsRepo = {
  /**
   * Records the customer's review of their completed job and moves the worker's totals, in one
   * transaction conditional on the job being theirs, reviewable and not yet reviewed (of two
   * concurrent reviews exactly one is written). Refusals say why, from the job as it is now.
   */
  async record(review: NewReview): Promise<ReviewResult> {
    for (let attempt = 1; ; attempt++) {
      const job = await jobsRepo.findById(review.jobId);
      const refused = refusal(job, review.customerId, review.workerId);
      if (refused) throw refused;
      const workerId = job!.acceptedBy!;
      try {
        await writeCounted(reviewWrites(review, workerId));
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
        // A missing profile will not come back; anything else (a concurrent review of this job, or
        // another write to the job or the worker at the same moment) is explained by reading again.
        if (error.reasons[1] === 'ConditionalCheckFailed' && !error.refusedAt(0)) throw new Error(`Worker ${workerId} of job ${review.jobId} has no profile`, { cause: error });
        if (attempt >= ATTEMPTS) throw new ConflictError('This job changed while your review was being saved. Please try again.');
        continue;
      }
      const worker = await readWorker(workerId);
      if (worker) await flagIfStreak(worker, review.jobId, review.now);
      return {
        success: true,
        jobId: review.jobId,
        rating: review.rating,
        workerRating: averageRating(worker?.ratingSum ?? review.rating, worker?.ratingCount ?? 1) ?? review.rating,
        workerReviewCount: worker?.ratingCount ?? 1,
      };
    }
  },

  /** A worker's probation records, oldest first. */
  async probationsOf(workerId: string): Promise<WorkerProbationItem[]> {
    return queryAll({ ...workerProbationEntity.range(workerId), consistent: true });
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEntity, workerEntity, workerProbationEntity], writes: [jobEntity, workerEntity, workerProbationEntity] });
