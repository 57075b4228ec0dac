import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { averageRating, LOW_RATING, PROBATION_STREAK, type ReviewResult } from '../../../shared/schemas/review-rules';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { logger } from '../logger';
import { jobsRepo, type JobItem } from './jobs';
import { writeTogether, WriteCancelled } from './transact';
import type { WorkerItem } from './workers';

/**
 * Reviews (customer spec sections 3, 5, 8). A review lives on its job and moves the worker's
 * running totals in the same transaction, so the average can never count a review twice or miss
 * one. Only the job's customer reviews it, once, after the work is completed.
 */

export const REVIEW_JOB_NOT_FOUND = 'We could not find this job among yours.';
export const REVIEW_NOT_COMPLETED = 'You can review the work once it is completed.';
export const ALREADY_REVIEWED = 'You have already reviewed this job.';
export const REVIEW_OTHER_WORKER = 'This review is for another professional.';
export const PROBATION_REASON = 'Rated 2 stars or fewer 3 times in a row';

const reviewableStates: readonly JobItem['state'][] = ['completed', 'verified', 'paid'];

/** The worker_probations record of the stored schema, beside the worker's profile. */
export interface WorkerProbationItem {
  pk: string;
  sk: string;
  entity: 'worker-probation';
  workerId: string;
  reason: string;
  startDate: string;
  endDate: string | null;
  status: 'active' | 'ended';
  /** The job whose review completed the streak. */
  reviewTrigger: string;
}

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
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.worker(id), ConsistentRead: true }));
  return out.Item as WorkerItem | undefined;
}

function reviewWrites(review: NewReview, workerId: string) {
  const { rating, now } = review;
  const text = review.text?.trim();
  const name = review.reviewerName?.trim();
  const low = rating <= LOW_RATING;
  return [
    {
      Update: {
        TableName: tableName,
        Key: keys.job(review.jobId),
        UpdateExpression: `SET rating = :rating, reviewedAt = :now, updatedAt = :now${text ? ', reviewText = :text' : ''}${name ? ', reviewerName = :name' : ''}`,
        ConditionExpression:
          'attribute_exists(pk) AND customerId = :customer AND attribute_not_exists(reviewedAt) AND #state IN (:completed, :verified, :paid) AND acceptedBy = :worker',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':rating': rating,
          ':now': now,
          ':customer': review.customerId,
          ':completed': 'completed',
          ':verified': 'verified',
          ':paid': 'paid',
          ':worker': workerId,
          ...(text ? { ':text': text } : {}),
          ...(name ? { ':name': name } : {}),
        },
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: keys.worker(workerId),
        UpdateExpression: low
          ? 'ADD ratingSum :rating, ratingCount :one SET lowRatingStreak = if_not_exists(lowRatingStreak, :zero) + :one, updatedAt = :now'
          : 'ADD ratingSum :rating, ratingCount :one SET lowRatingStreak = :zero, updatedAt = :now',
        // ADD would otherwise create a stray item for a profile that is gone.
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':rating': rating, ':one': 1, ':zero': 0, ':now': now },
      },
    },
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
    ...keys.workerProbation(worker.id, now),
    entity: 'worker-probation',
    workerId: worker.id,
    reason: PROBATION_REASON,
    startDate: now,
    endDate: null,
    status: 'active',
    reviewTrigger: jobId,
  };
  try {
    await writeTogether([
      { Put: { TableName: tableName, Item: probation, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Update: {
          TableName: tableName,
          Key: keys.worker(worker.id),
          UpdateExpression: 'SET probationSince = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(probationSince)',
          ExpressionAttributeValues: { ':now': now },
        },
      },
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
        await writeTogether(reviewWrites(review, workerId));
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
        // A missing profile will not come back; anything else (a concurrent review of this job, or
        // another write to the job or the worker at the same moment) is explained by reading again.
        if (error.reasons[1] === 'ConditionalCheckFailed' && !error.refusedAt(0)) throw new Error(`Worker ${workerId} of job ${review.jobId} has no profile`);
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
    const out = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': keys.workerProbation(workerId).pk, ':sk': keys.workerProbation(workerId).sk },
        ConsistentRead: true,
      }),
    );
    return (out.Items ?? []) as WorkerProbationItem[];
  },
};
