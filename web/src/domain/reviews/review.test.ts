import { describe, expect, it } from 'vitest';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { REVIEW_TOO_SHORT } from '../../../../shared/schemas/review';
import { apiErrorFrom } from '../../lib/api';
import {
  counterText,
  isLowRating,
  isStaleReviewTarget,
  nextStar,
  placeFields,
  ratedText,
  reviewFailureText,
  reviewPromptOf,
  serverMessage,
  starLabel,
  workerNameOf,
} from './review';
import { invalidReviewToast, validateReview } from './review-form';

const worker: ServiceRequestView['worker'] = { id: 'w-1', name: 'Sam Rivera', phone: '+1 415 555 0100', photoUrl: null, rating: null, reviewCount: 0 };
const job = { id: 'job-1', worker, service: 'Plumbing' };

describe('counterText', () => {
  it('counts the characters against the 500 maximum', () => {
    expect(counterText(0)).toBe('0/500');
    expect(counterText(123)).toBe('123/500');
    expect(counterText(7, 80)).toBe('7/80');
  });
});

describe('starLabel', () => {
  it('names each star with its count and word', () => {
    expect([1, 2, 3, 4, 5].map(starLabel)).toEqual([
      '1 star, Poor',
      '2 stars, Fair',
      '3 stars, Good',
      '4 stars, Very Good',
      '5 stars, Excellent',
    ]);
  });
});

describe('isLowRating', () => {
  it('warns at two stars or fewer, not above, and not before a choice', () => {
    expect([1, 2, 3, 5].map(isLowRating)).toEqual([true, true, false, false]);
    expect(isLowRating(null)).toBe(false);
  });
});

describe('ratedText', () => {
  it('says the rating given, out of five, with its word', () => {
    expect(ratedText(4)).toBe('You rated this 4/5 (Very Good)');
    expect(ratedText(1)).toBe('You rated this 1/5 (Poor)');
  });
});

describe('nextStar', () => {
  it('moves forward with Right and Up and back with Left and Down, wrapping at the ends', () => {
    expect(nextStar(3, 'ArrowRight')).toBe(4);
    expect(nextStar(3, 'ArrowUp')).toBe(4);
    expect(nextStar(3, 'ArrowLeft')).toBe(2);
    expect(nextStar(3, 'ArrowDown')).toBe(2);
    expect(nextStar(5, 'ArrowRight')).toBe(1);
    expect(nextStar(1, 'ArrowLeft')).toBe(5);
  });

  it('jumps to the ends with Home and End and leaves other keys to the browser', () => {
    expect(nextStar(3, 'Home')).toBe(1);
    expect(nextStar(3, 'End')).toBe(5);
    expect(nextStar(3, 'Tab')).toBeNull();
    expect(nextStar(3, ' ')).toBeNull();
  });
});

describe('reviewPromptOf', () => {
  it('offers nothing before the job is completed', () => {
    expect(reviewPromptOf({ status: 'In Progress', worker, rating: null })).toEqual({ kind: 'none' });
    expect(reviewPromptOf({ status: 'Pending', worker: null, rating: null })).toEqual({ kind: 'none' });
  });

  it('offers a review of the named professional once completed and not yet rated', () => {
    expect(reviewPromptOf({ status: 'Completed', worker, rating: null })).toEqual({ kind: 'review', workerName: 'Sam Rivera' });
  });

  it('shows the rating given once rated, instead of the button', () => {
    expect(reviewPromptOf({ status: 'Completed', worker, rating: 2 })).toEqual({ kind: 'rated', text: 'You rated this 2/5 (Fair)' });
  });

  it('speaks of "your professional" when the card has no worker', () => {
    expect(workerNameOf({ worker: null })).toBe('your professional');
    expect(reviewPromptOf({ status: 'Completed', worker: null, rating: null })).toEqual({ kind: 'review', workerName: 'your professional' });
  });
});

describe('validateReview', () => {
  it('sends the job, the stars, the trimmed text, the worker and the service', () => {
    // Prepare
    const values = { rating: 4, reviewText: '  Fixed the leak fast and tidied up.  ' };

    // Act
    const result = validateReview(values, job);

    // Assess
    expect(result).toEqual({
      ok: true,
      input: { serviceRequestId: 'job-1', rating: 4, reviewText: 'Fixed the leak fast and tidied up.', workerId: 'w-1', serviceName: 'Plumbing' },
    });
  });

  it('leaves the worker out when the card has none', () => {
    const result = validateReview({ rating: 5, reviewText: 'Great work, thanks!' }, { ...job, worker: null });
    expect(result.ok && result.input).toEqual({ serviceRequestId: 'job-1', rating: 5, reviewText: 'Great work, thanks!', serviceName: 'Plumbing' });
  });

  it('refuses a text shorter than 10 characters after trimming, under the field, with the toast', () => {
    // Act
    const result = validateReview({ rating: 5, reviewText: '   Good job   ' }, job);

    // Assess
    expect(result).toEqual({ ok: false, errors: { reviewText: REVIEW_TOO_SHORT } });
    expect(result.ok ? null : invalidReviewToast(result.errors)).toEqual({
      title: 'Review too short',
      description: 'Please write at least 10 characters for your review.',
    });
  });

  it('refuses an empty text with the same message', () => {
    expect(validateReview({ rating: 3, reviewText: '' }, job)).toEqual({ ok: false, errors: { reviewText: REVIEW_TOO_SHORT } });
  });

  it('refuses more than 500 characters without the too-short toast', () => {
    const result = validateReview({ rating: 3, reviewText: 'a'.repeat(501) }, job);
    expect(result.ok).toBe(false);
    expect(result.ok ? null : result.errors.reviewText).toMatch(/at most 500/);
    expect(result.ok ? 'x' : invalidReviewToast(result.errors)).toBeNull();
  });
});

describe('placeFields', () => {
  it("keeps the form's fields under themselves and says the rest at the top", () => {
    expect(placeFields({ rating: 'Bad stars', workerId: 'No such worker', _: 'Unknown field: x' }, ['rating', 'reviewText'])).toEqual({
      rating: 'Bad stars',
      _: 'No such worker Unknown field: x',
    });
  });
});

describe('serverMessage and reviewFailureText', () => {
  it("uses the server's message when it sent one", () => {
    // Prepare
    const conflict = apiErrorFrom(409, 'Conflict', JSON.stringify({ message: 'You have already reviewed this job.' }));

    // Act
    const text = reviewFailureText(conflict);

    // Assess
    expect(text).toBe('You have already reviewed this job.');
    expect(serverMessage(conflict)).toBe('You have already reviewed this job.');
  });

  it('falls back to "Please try again later." for a bare status or a network failure', () => {
    expect(reviewFailureText(apiErrorFrom(502, 'Bad Gateway', '<html>oops</html>'))).toBe('Please try again later.');
    expect(reviewFailureText(apiErrorFrom(500, 'Server Error', ''))).toBe('Please try again later.');
    expect(reviewFailureText(new TypeError('Failed to fetch'))).toBe('Please try again later.');
  });
});

describe('isStaleReviewTarget', () => {
  it('treats not-yours and already-reviewed as a list out of date, nothing else', () => {
    expect(isStaleReviewTarget(apiErrorFrom(404, 'Not Found', ''))).toBe(true);
    expect(isStaleReviewTarget(apiErrorFrom(409, 'Conflict', ''))).toBe(true);
    expect(isStaleReviewTarget(apiErrorFrom(400, 'Bad Request', ''))).toBe(false);
    expect(isStaleReviewTarget(new TypeError('Failed to fetch'))).toBe(false);
  });
});
