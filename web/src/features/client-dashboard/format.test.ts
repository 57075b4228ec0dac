import { describe, expect, it } from 'vitest';
import { distanceBands } from '../../../../shared/domain/distance-bands';
import { bandLabel, hourlyRateLabel, ratingText, shownAreas } from './format';

describe('hourlyRateLabel', () => {
  it('shows whole dollars without decimals', () => {
    // Prepare
    const cents = 4500;
    // Act
    const label = hourlyRateLabel(cents);
    // Assess
    expect(label).toBe('$45/hr');
  });

  it('shows cents when the rate has them', () => {
    expect(hourlyRateLabel(4550)).toBe('$45.50/hr');
    expect(hourlyRateLabel(12005)).toBe('$120.05/hr');
  });

  it('writes the rate in the configured currency and locale', () => {
    // Prepare
    const euros = { currency: 'EUR', locale: 'de-DE', distanceUnit: 'km' } as const;

    // Act
    const label = hourlyRateLabel(4550, euros);

    // Assess
    expect(label.replace(/\s/g, ' ')).toBe('45,50 €/hr');
  });
});

describe('ratingText', () => {
  it('says New for a worker without reviews', () => {
    // Act
    const text = ratingText(null, 0);
    // Assess
    expect(text).toEqual({ visible: 'New', reviews: null, spoken: 'New: no reviews yet' });
  });

  it('gives the average with one decimal and the review count', () => {
    // Act
    const many = ratingText(4.666, 12);
    const one = ratingText(5, 1);
    // Assess
    expect(many).toEqual({ visible: '4.7', reviews: '12 reviews', spoken: 'Rated 4.7 out of 5 from 12 reviews' });
    expect(one.reviews).toBe('1 review');
  });
});

describe('bandLabel', () => {
  it('words each band in miles, the unit the server measured it in', () => {
    // Prepare
    const bands = distanceBands('mi');

    // Act
    const labels = bands.map(bandLabel);

    // Assess
    expect(labels).toEqual(['Under 5 miles away', '5–10 miles away', '10–25 miles away', '25–50 miles away', 'Over 50 miles away']);
  });

  it('words kilometres where the site measures in km', () => {
    expect(bandLabel({ id: 'under-5', from: 0, to: 5, unit: 'km' })).toBe('Under 5 km away');
    expect(bandLabel({ id: '5-10', from: 5, to: 10, unit: 'km' })).toBe('5–10 km away');
  });

  it('gives nothing without a band, never a guess', () => {
    expect(bandLabel(null)).toBeNull();
  });
});

describe('shownAreas', () => {
  it('names at most two service areas, skipping blank ones', () => {
    // Prepare
    const areas = ['San Francisco, CA', ' ', 'Oakland, CA', 'Berkeley, CA'];

    // Act
    const shown = shownAreas(areas);

    // Assess
    expect(shown).toEqual(['San Francisco, CA', 'Oakland, CA']);
    expect(shownAreas(undefined)).toEqual([]);
  });
});

