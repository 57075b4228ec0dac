import { describe, expect, it } from 'vitest';
import { RATING_REQUIRED } from '../../../../shared/schemas/review';
import { apiErrorFrom } from '../../lib/api';
import { RATE_REDIRECT_MS, RATING_PROMPT, rateFailureOf, ratingErrorShown, validateRating } from './rate-form';

describe('validateRating', () => {
  it('asks for a star under the stars and in the toast when none was chosen', () => {
    // Act
    const result = validateRating({ rating: null, comment: 'Nice work' });

    // Assess
    expect(result).toEqual({ ok: false, errors: { rating: RATING_PROMPT }, toast: { title: RATING_REQUIRED } });
    expect(RATING_PROMPT).toBe('Please select a rating');
    expect(RATING_REQUIRED).toBe('Rating is required to submit feedback');
  });

  it('sends the stars alone when the comment is blank', () => {
    expect(validateRating({ rating: 3, comment: '   ' })).toEqual({ ok: true, input: { rating: 3 } });
  });

  it('sends the comment trimmed when there is one', () => {
    expect(validateRating({ rating: 5, comment: '  On time and friendly. ' })).toEqual({
      ok: true,
      input: { rating: 5, comment: 'On time and friendly.' },
    });
  });

  it('refuses a comment over 500 characters under the comment, without the rating toast', () => {
    const result = validateRating({ rating: 4, comment: 'a'.repeat(501) });
    expect(result.ok).toBe(false);
    expect(result.ok ? null : result.errors).toEqual({ comment: 'Comment must be at most 500 characters' });
    expect(result.ok ? 'x' : result.toast).toBeNull();
  });
});

describe('ratingErrorShown', () => {
  it('drops "Please select a rating" once a star is chosen and keeps other messages', () => {
    expect(ratingErrorShown(RATING_PROMPT, null)).toBe(RATING_PROMPT);
    expect(ratingErrorShown(RATING_PROMPT, 4)).toBeUndefined();
    expect(ratingErrorShown('Rating must be from 1 to 5 stars', 4)).toBe('Rating must be from 1 to 5 stars');
    expect(ratingErrorShown(undefined, null)).toBeUndefined();
  });
});

describe('rateFailureOf', () => {
  it("shows a 404 or 409's message on the page as well as in the toast", () => {
    // Prepare
    const rated = apiErrorFrom(409, 'Conflict', JSON.stringify({ message: 'You have already reviewed this job.' }));
    const notYours = apiErrorFrom(404, 'Not Found', JSON.stringify({ message: 'We could not find this job among yours.' }));

    // Act
    const a = rateFailureOf(rated);
    const b = rateFailureOf(notYours);

    // Assess
    expect(a).toEqual({ description: 'You have already reviewed this job.', onPage: 'You have already reviewed this job.' });
    expect(b).toEqual({ description: 'We could not find this job among yours.', onPage: 'We could not find this job among yours.' });
  });

  it('says "Please try again" for a server or network failure and keeps the page as it is', () => {
    expect(rateFailureOf(apiErrorFrom(500, 'Internal Server Error', ''))).toEqual({ description: 'Please try again', onPage: null });
    expect(rateFailureOf(new TypeError('Failed to fetch'))).toEqual({ description: 'Please try again', onPage: null });
  });

  it('leaves a 400 to the fields and says a refusal without a message in its own words', () => {
    expect(rateFailureOf(apiErrorFrom(400, 'Bad Request', JSON.stringify({ fields: { rating: 'x' } })))).toEqual({ description: 'Please try again', onPage: null });
    expect(rateFailureOf(apiErrorFrom(409, 'Conflict', '')).onPage).toBe('This job cannot be rated now.');
  });
});

describe('RATE_REDIRECT_MS', () => {
  it('goes home 3 seconds after the thank-you', () => {
    expect(RATE_REDIRECT_MS).toBe(3000);
  });
});
