import { RATING_REQUIRED, jobRatingSchema, type JobRatingInput } from '../../../../shared/schemas/review';
import { fieldErrors } from '../../../../shared/validation';
import { placeFields, serverMessage } from '../../domain/reviews/review';
import { ApiError } from '../../lib/api';

/** The thank-you screen goes to / after 3 s. */
export const RATE_REDIRECT_MS = 3000;

/** Under the stars when none was chosen; the toast says RATING_REQUIRED. */
export const RATING_PROMPT = 'Please select a rating';

export interface RateFormValues {
  /** Null until a star is chosen: this page has no default. */
  rating: number | null;
  comment: string;
}

export const rateFieldOrder = ['rating', 'comment'] as const;

export type RateFormResult =
  | { ok: true; input: JobRatingInput }
  | { ok: false; errors: Record<string, string>; toast: { title: string; description?: string } | null };

/** The body of POST /api/jobs/{id}/rating, checked with the server's schema; a blank comment is left out. */
export function validateRating(values: RateFormValues): RateFormResult {
  const candidate = {
    ...(values.rating === null ? {} : { rating: values.rating }),
    ...(values.comment.trim() ? { comment: values.comment } : {}),
  };
  const parsed = jobRatingSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors = placeFields(fieldErrors(parsed.error), rateFieldOrder);
  if (values.rating === null) {
    errors.rating = RATING_PROMPT;
    return { ok: false, errors, toast: { title: RATING_REQUIRED } };
  }
  return { ok: false, errors, toast: null };
}

/** "Please select a rating" goes once a star is chosen; any other message stays until the next submit. */
export function ratingErrorShown(error: string | undefined, rating: number | null): string | undefined {
  if (!error) return undefined;
  return error === RATING_PROMPT && rating !== null ? undefined : error;
}

export interface RateFailure {
  /** The toast's line when rating failed. */
  description: string;
  /** Said on the page as well when retrying cannot help: not this customer's job, not completed, rated already. */
  onPage: string | null;
}

export function rateFailureOf(error: unknown): RateFailure {
  const message = serverMessage(error);
  const lasting = error instanceof ApiError && error.status !== 400 && error.status >= 401 && error.status < 500;
  return {
    description: message ?? 'Please try again',
    onPage: lasting ? (message ?? fallbackFor(error.status)) : null,
  };
}

function fallbackFor(status: number): string {
  if (status === 404) return 'We could not find this job among yours.';
  if (status === 409) return 'This job cannot be rated now.';
  return 'You cannot rate this job from this browser.';
}
