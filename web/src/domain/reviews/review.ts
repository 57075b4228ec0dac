import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { LOW_RATING, REVIEW_MAX, ratingLabel } from '../../../../shared/schemas/review-rules';
import { ApiError } from '../../lib/api';

export const STAR_VALUES = [1, 2, 3, 4, 5] as const;

export const LOW_RATING_NOTICE =
  'Low ratings are reviewed by our team: professionals rated this low may be put on probation or removed.';

/** The live counter under a review or comment box: "123/500". */
export function counterText(length: number, max: number = REVIEW_MAX): string {
  return `${length}/${max}`;
}

/** A star's accessible name: "1 star, Poor" … "5 stars, Excellent". */
export function starLabel(star: number): string {
  return `${star} ${star === 1 ? 'star' : 'stars'}, ${ratingLabel(star)}`;
}

export function isLowRating(rating: number | null): boolean {
  return rating !== null && rating <= LOW_RATING;
}

/** What a completed card says once its customer has rated it. */
export function ratedText(rating: number): string {
  return `You rated this ${rating}/5 (${ratingLabel(rating)})`;
}

/**
 * The star an arrow key moves to from a given star (radio-group keys: Right/Up forward, Left/Down
 * back, both wrapping; Home and End the ends); null for any other key, which the browser keeps.
 */
export function nextStar(from: number, key: string): number | null {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return from >= 5 ? 1 : from + 1;
    case 'ArrowLeft':
    case 'ArrowDown':
      return from <= 1 ? 5 : from - 1;
    case 'Home':
      return 1;
    case 'End':
      return 5;
    default:
      return null;
  }
}

/** Who the review is about, in the dialog's title and on its button; a card can lack the worker. */
export function workerNameOf(request: Pick<ServiceRequestView, 'worker'>): string {
  return request.worker?.name.trim() || 'your professional';
}

/** What a request's card offers about reviews: nothing until completed, then a button, then the rating given. */
export type ReviewPrompt = { kind: 'none' } | { kind: 'review'; workerName: string } | { kind: 'rated'; text: string };

export function reviewPromptOf(request: Pick<ServiceRequestView, 'status' | 'worker' | 'rating'>): ReviewPrompt {
  if (request.status !== 'Completed') return { kind: 'none' };
  if (request.rating !== null) return { kind: 'rated', text: ratedText(request.rating) };
  return { kind: 'review', workerName: workerNameOf(request) };
}


/** A form's own fields keep their messages; anything else (ids, unknown fields) is said at the top. */
export function placeFields(fields: Record<string, string>, own: readonly string[]): Record<string, string> {
  const placed: Record<string, string> = {};
  const other: string[] = [];
  for (const [key, message] of Object.entries(fields)) {
    if (own.includes(key)) placed[key] = message;
    else if (!other.includes(message)) other.push(message);
  }
  if (other.length > 0) placed._ = other.join(' ');
  return placed;
}

/**
 * The server's own words for a refusal (its `message`), or nothing: a bare status line or a
 * browser's "Failed to fetch" is no help to a customer, who then reads the fallback.
 */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const body = error.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() ? message : undefined;
}

/** The failure toast's line: the server's reason when it gave one, else "Please try again later." */
export function reviewFailureText(error: unknown): string {
  return serverMessage(error) ?? 'Please try again later.';
}

/**
 * A 404 (not this customer's job) or 409 (not completed, already reviewed) means the list the card
 * came from is out of date; anything else leaves it alone.
 */
export function isStaleReviewTarget(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 409);
}
