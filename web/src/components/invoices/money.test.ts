import { describe, expect, it } from 'vitest';
import { formatHourlyRate, formatHours, formatMoney, hoursPhrase } from './money';

describe('formatMoney', () => {
  it('writes cents as dollars with two decimals', () => {
    expect(formatMoney(15750)).toBe('$157.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(5)).toBe('$0.05');
  });

  it('groups thousands so large totals stay readable', () => {
    expect(formatMoney(1_234_500)).toBe('$12,345.00');
  });

  it('shows a dash rather than "NaN" for an unreadable amount', () => {
    expect(formatMoney(Number.NaN)).toBe('—');
  });
});

describe('formatHourlyRate', () => {
  it('adds the per-hour unit to the dollar amount', () => {
    expect(formatHourlyRate(4500)).toBe('$45.00/hr');
  });
});

describe('formatHours', () => {
  it('always shows one decimal', () => {
    // Prepare
    const hours = [3, 2.5, 1.25, 0.04];

    // Act
    const shown = hours.map(formatHours);

    // Assess
    expect(shown).toEqual(['3.0', '2.5', '1.3', '0.0']);
  });

  it('says "hour" for exactly one and "hours" otherwise', () => {
    expect(hoursPhrase(1)).toBe('1.0 hour');
    expect(hoursPhrase(2.5)).toBe('2.5 hours');
  });
});
