import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { REVIEW_TOO_SHORT, workerReviewSchema, type WorkerReviewInput } from '../../../../shared/schemas/review';
import { fieldErrors } from '../../../../shared/validation';
import { placeFields } from './review';

/**
 * The review form's rules, checked with the server's own schema. Apart from review.ts, whose small
 * helpers the tracking and invoice screens use without bringing the schema library with them.
 */
export interface ReviewFormValues {
  rating: number;
  reviewText: string;
}

export const reviewFieldOrder = ['rating', 'reviewText'] as const;
export type ReviewField = (typeof reviewFieldOrder)[number];

export type ReviewFormResult = { ok: true; input: WorkerReviewInput } | { ok: false; errors: Record<string, string> };

/**
 * The body of POST /api/worker-reviews, checked with the server's own schema. The job's worker and
 * service go along so the server can refuse a review that names another professional.
 */
export function validateReview(values: ReviewFormValues, request: Pick<ServiceRequestView, 'id' | 'worker' | 'service'>): ReviewFormResult {
  const candidate = {
    serviceRequestId: request.id,
    rating: values.rating,
    reviewText: values.reviewText,
    ...(request.worker ? { workerId: request.worker.id } : {}),
    ...(request.service ? { serviceName: request.service } : {}),
  };
  const parsed = workerReviewSchema.safeParse(candidate);
  return parsed.success ? { ok: true, input: parsed.data } : { ok: false, errors: placeFields(fieldErrors(parsed.error), reviewFieldOrder) };
}

/** The toast for a review refused before sending; only a too-short text has one. */
export function invalidReviewToast(errors: Record<string, string>): { title: string; description: string } | null {
  if (errors.reviewText !== REVIEW_TOO_SHORT) return null;
  return { title: 'Review too short', description: 'Please write at least 10 characters for your review.' };
}
