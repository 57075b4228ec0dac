import { describe, expect, it } from 'vitest';
import { distanceLabel, etaLabel, hourlyRateLabel, initials, ratingText, shownAreas } from './format';

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

describe('distanceLabel and etaLabel', () => {
  it('shows distances in miles by default', () => {
    // Prepare
    const km = 3.7;

    // Act
    const label = distanceLabel(km);

    // Assess
    expect(label).toBe('2.3 mi');
    expect(distanceLabel(0)).toBe('0.0 mi');
  });

  it('shows kilometres when the configuration says so, in its locale', () => {
    expect(distanceLabel(3.24, { currency: 'USD', locale: 'en-US', distanceUnit: 'km' })).toBe('3.2 km');
    expect(distanceLabel(3.24, { currency: 'EUR', locale: 'de-DE', distanceUnit: 'km' })).toBe('3,2 km');
  });

  it('shows the arrival estimate in whole minutes', () => {
    expect(etaLabel(12)).toBe('~12 min');
    expect(etaLabel(0.2)).toBe('~1 min');
  });

  it('give nothing for unknown figures, never a guess', () => {
    expect(distanceLabel(null)).toBeNull();
    expect(etaLabel(null)).toBeNull();
    expect(distanceLabel(Number.NaN)).toBeNull();
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

describe('initials', () => {
  it('takes the first and last name initials', () => {
    expect(initials('Dana Maria Whitfield')).toBe('DW');
    expect(initials('  cher ')).toBe('C');
    expect(initials('')).toBe('?');
  });
});

