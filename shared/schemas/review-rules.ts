/**
 * The reviews' plain rules (labels, limits, messages, the worker's average) without the schema
 * library, so the functions that only show or count ratings do not bundle the review forms' schemas.
 */

export type { ReviewResult } from './views/people';

export const ratingLabels = ['Poor', 'Fair', 'Good', 'Very Good', 'Excellent'] as const;
/** 1 Poor … 5 Excellent. */
export function ratingLabel(rating: number): string {
  return ratingLabels[Math.min(5, Math.max(1, Math.round(rating))) - 1]!;
}

export const DEFAULT_RATING = 5;
/** A rating at or below this is "low": the review dialog warns, and a streak of them flags the worker. */
export const LOW_RATING = 2;
/** Consecutive low ratings that put a worker on probation for the owner to look at. */
export const PROBATION_STREAK = 3;
export const REVIEW_MIN = 10;
export const REVIEW_MAX = 500;
export const REVIEW_TOO_SHORT = 'Review too short - Please write at least 10 characters for your review.';
export const RATING_REQUIRED = 'Rating is required to submit feedback';

/** A worker's average from the running totals kept on the profile; null before the first review. */
export function averageRating(sum: number, count: number): number | null {
  return count > 0 ? Math.round((sum / count) * 10) / 10 : null;
}
