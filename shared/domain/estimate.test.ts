import { describe, expect, it } from 'vitest';
import { typicalHours } from '../job-sizes';
import { cardFeeCents, estimateJob, medianRate, proShareCents, requestedTimeProblem, REQUESTED_TIME_MESSAGE } from './estimate';

const rates = { feePercent: 10, rushFeeCents: 25_00, cardFeePercent: 2.9, cardFeeFixedCents: 30 };
const NOW = Date.parse('2026-03-02T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

describe('the hourly rate an estimate uses', () => {
  it('has none when no pro offers the trade', () => {
    expect(medianRate([])).toBeNull();
  });

  it('is the one pro rate when one pro would be offered the job', () => {
    expect(medianRate([4500])).toBe(4500);
  });

  it('is the middle rate of an odd number of pros, whatever their order', () => {
    expect(medianRate([9000, 3000, 4500])).toBe(4500);
  });

  it('is the mean of the two middle rates of an even number, rounded to the cent', () => {
    expect(medianRate([3000, 4501, 5000, 2000])).toBe(3751); // (3000 + 4501) / 2 = 3750.5
  });
});

describe('the card fee', () => {
  it('covers the processor cut of the whole charge, fee included', () => {
    // Act
    const fee = cardFeeCents(100_00, 2.9, 30);

    // Assess: 10,000 + 330 = 10,330 charged; 2.9% of it + 30 is 329.57, so 10,330 still covers 10,000
    expect(fee).toBe(330);
    const charge = 100_00 + fee;
    expect(charge - (charge * 0.029 + 30)).toBeGreaterThanOrEqual(100_00);
  });

  it('is nothing on nothing', () => {
    expect(cardFeeCents(0, 2.9, 30)).toBe(0);
  });
});

describe('estimating a job', () => {
  it('adds the rush fee for as soon as possible and charges the card fee on what the customer pays', () => {
    // Act
    const estimate = estimateJob({ category: 'plumbing', size: 'medium', hourlyRateCents: 4500, asap: true }, rates);

    // Assess: 2.5 h x $45 = $112.50, + $25 rush = $137.50 labour
    expect(estimate).toEqual({
      baseAmount: 11250,
      rushFee: 2500,
      platformFee: 1375,
      transactionFee: cardFeeCents(13750, 2.9, 30),
      totalCost: 13750 + cardFeeCents(13750, 2.9, 30),
      hours: 2.5,
      hourlyRate: 4500,
      workerCount: 1,
    });
  });

  it('has no rush fee for a chosen time', () => {
    const estimate = estimateJob({ category: 'plumbing', size: 'medium', hourlyRateCents: 4500, asap: false }, rates);

    expect(estimate.rushFee).toBe(0);
    expect(estimate.totalCost).toBe(11250 + cardFeeCents(11250, 2.9, 30));
  });

  it('takes the platform fee out of the pro share rather than adding it to the customer total', () => {
    // Act
    const estimate = estimateJob({ category: 'electrical', size: 'large', hourlyRateCents: 5555, asap: true }, rates);

    // Assess
    expect(estimate.totalCost).toBe(estimate.baseAmount + estimate.rushFee + estimate.transactionFee);
    expect(proShareCents(estimate) + estimate.platformFee).toBe(estimate.baseAmount + estimate.rushFee);
  });

  it('rounds each amount to whole cents', () => {
    // Act: 2.5 h x 33.33 = 83.325
    const estimate = estimateJob({ category: 'handyman', size: 'medium', hourlyRateCents: 3333, asap: false }, { ...rates, feePercent: 15 });

    // Assess
    expect(estimate.baseAmount).toBe(8333);
    expect(estimate.platformFee).toBe(1250); // 15% of 83.33 = 12.4995
    for (const value of Object.values(estimate)) expect(Number.isInteger(value) || value === estimate.hours).toBe(true);
  });

  it('never estimates under the one-hour call-out minimum', () => {
    expect(Object.values(typicalHours).every((sizes) => Object.values(sizes).every((h) => h >= 1))).toBe(true);
    const estimate = estimateJob({ category: 'plumbing', size: 'small', hourlyRateCents: 4000, asap: false }, rates);

    expect(estimate.hours).toBeGreaterThanOrEqual(1);
    expect(estimate.baseAmount).toBe(4000);
  });

  it('grows with the job size', () => {
    const [small, medium, large] = (['small', 'medium', 'large'] as const).map(
      (size) => estimateJob({ category: 'painting', size, hourlyRateCents: 4000, asap: false }, rates).totalCost,
    );

    expect(small).toBeLessThan(medium!);
    expect(medium).toBeLessThan(large!);
  });
});

describe('estimating a job for a crew', () => {
  it('prices every pro\'s hours and rush, and takes the card fee once on the one charge', () => {
    // Act: 3 pros, each 2.5 h x $45 = $112.50 and a $25 rush
    const estimate = estimateJob({ category: 'plumbing', size: 'medium', hourlyRateCents: 4500, asap: true, workerCount: 3 }, rates);

    // Assess: labour $412.50; one card fee on it (one fixed 30c), not three
    expect(estimate).toEqual({
      baseAmount: 33750,
      rushFee: 7500,
      platformFee: 4125,
      transactionFee: cardFeeCents(41250, 2.9, 30),
      totalCost: 41250 + cardFeeCents(41250, 2.9, 30),
      hours: 2.5,
      hourlyRate: 4500,
      workerCount: 3,
    });
    expect(estimate.transactionFee).toBeLessThan(3 * cardFeeCents(13750, 2.9, 30));
  });

  it('adds no rush fee for any pro of a crew sent for a chosen time', () => {
    const estimate = estimateJob({ category: 'painting', size: 'large', hourlyRateCents: 4000, asap: false, workerCount: 2 }, rates);

    expect(estimate.rushFee).toBe(0);
    expect(estimate.baseAmount).toBe(2 * estimateJob({ category: 'painting', size: 'large', hourlyRateCents: 4000, asap: false }, rates).baseAmount);
  });

  it('keeps every amount in whole cents for a crew at an odd rate', () => {
    // Act: 2.5 h x 33.33 = 83.325 a pro, rounded per pro before the crew is added up
    const estimate = estimateJob({ category: 'handyman', size: 'medium', hourlyRateCents: 3333, asap: true, workerCount: 5 }, { ...rates, feePercent: 15 });

    // Assess
    expect(estimate.baseAmount).toBe(5 * 8333);
    expect(estimate.rushFee).toBe(5 * 2500);
    expect(estimate.totalCost).toBe(estimate.baseAmount + estimate.rushFee + estimate.transactionFee);
    for (const value of Object.values(estimate)) expect(Number.isInteger(value) || value === estimate.hours).toBe(true);
  });

  it('prices one pro when no count is given', () => {
    const estimate = estimateJob({ category: 'plumbing', size: 'small', hourlyRateCents: 4000, asap: false }, rates);

    expect(estimate.workerCount).toBe(1);
  });
});

describe('the requested time', () => {
  it('takes a time tomorrow', () => {
    expect(requestedTimeProblem(new Date(NOW + DAY).toISOString(), NOW)).toBeNull();
  });

  it('takes a time exactly 14 days ahead', () => {
    expect(requestedTimeProblem(new Date(NOW + 14 * DAY).toISOString(), NOW)).toBeNull();
  });

  it('refuses a time in the past, saying what to choose', () => {
    expect(requestedTimeProblem(new Date(NOW - 60_000).toISOString(), NOW)).toContain(REQUESTED_TIME_MESSAGE);
  });

  it('refuses a time beyond 14 days', () => {
    expect(requestedTimeProblem(new Date(NOW + 14 * DAY + 1).toISOString(), NOW)).toContain(REQUESTED_TIME_MESSAGE);
  });

  it('refuses text that is not a time', () => {
    expect(requestedTimeProblem('tomorrow morning', NOW)).toContain(REQUESTED_TIME_MESSAGE);
  });
});
