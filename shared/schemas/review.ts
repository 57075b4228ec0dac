import * as z from 'zod/mini';
import { strictBody } from '../validation';
import { text } from './fields';
import { RATING_REQUIRED, REVIEW_MAX, REVIEW_MIN, REVIEW_TOO_SHORT } from './review-rules';

/**
 * Reviews and ratings. A review belongs to one completed job
 * and is written once, by that job's customer (the anonymous cookie); it moves the worker's rating.
 */
export * from './review-rules';

const rating = z.number({ error: RATING_REQUIRED }).check(
  z.int(RATING_REQUIRED),
  z.gte(1, 'Rating must be from 1 to 5 stars'),
  z.lte(5, 'Rating must be from 1 to 5 stars'),
);
const optionalText = (field: string, max: number) =>
  z.optional(text(`${field} must be text`, z.maxLength(max, `${field} must be at most ${max} characters`)));

/**
 * POST /api/worker-reviews, the review dialog. A client may also send workerId, clientId,
 * clientName and serviceName: accepted, but the server takes the worker, the customer and the
 * service from the job (a workerId that is not the job's worker is refused).
 */
export const workerReviewSchema = strictBody({
  serviceRequestId: text('Choose the job to review', z.minLength(1, 'Choose the job to review'), z.maxLength(64, 'serviceRequestId is too long')),
  rating,
  reviewText: text(REVIEW_TOO_SHORT, z.minLength(REVIEW_MIN, REVIEW_TOO_SHORT), z.maxLength(REVIEW_MAX, `Reviews can be at most ${REVIEW_MAX} characters`)),
  workerId: optionalText('workerId', 64),
  clientId: optionalText('clientId', 64),
  clientName: optionalText('clientName', 100),
  serviceName: optionalText('serviceName', 100),
});
export type WorkerReviewInput = z.infer<typeof workerReviewSchema>;

/** POST /api/jobs/{id}/rating, the /rate/:jobId page: stars required, comment optional. */
export const jobRatingSchema = strictBody({
  rating,
  comment: optionalText('Comment', REVIEW_MAX),
});
export type JobRatingInput = z.infer<typeof jobRatingSchema>;
