import { routeByName } from '../../shared/routes';
import { isId } from '../../shared/schemas/id';
import { workerReviewSchema } from '../../shared/schemas/review';
import { reviewsRepo, REVIEW_JOB_NOT_FOUND } from './data/reviews';
import { NotFoundError } from '../common/errors';
import { http, reply } from '../common/http';
import { logger } from '../common/logger';

/**
 * The review dialog: the customer (their cookie, not the body's clientId) reviews the worker of
 * their completed job, once. The worker and the service come from the job; a workerId naming
 * someone else is refused rather than silently ignored, since it means the client is confused.
 */
export const handler = http(routeByName('create-worker-review'), workerReviewSchema, async ({ body, caller }) => {
  const jobId = body.serviceRequestId;
  if (!isId(jobId)) throw new NotFoundError(REVIEW_JOB_NOT_FOUND);
  const result = await reviewsRepo.record({
    jobId,
    customerId: caller.id,
    rating: body.rating,
    text: body.reviewText,
    reviewerName: body.clientName,
    workerId: body.workerId || undefined,
    now: new Date().toISOString(),
  });
  logger.info('Worker reviewed', { jobId, rating: body.rating });
  return reply(201, result);
});
