import { describe, expect, it } from 'vitest';
import { currencySign, formatHourlyRate, formatHours, formatMoney, hoursPhrase } from './money';

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

  it('writes cents in the configured currency and locale', () => {
    expect(formatMoney(15750, { currency: 'EUR', locale: 'de-DE' }).replace(/\s/g, ' ')).toBe('157,50 €');
  });

  it('drops the decimals of a whole amount only when asked', () => {
    expect(formatMoney(4500, { whole: true })).toBe('$45');
    expect(formatMoney(4550, { whole: true })).toBe('$45.50');
    expect(formatMoney(4500)).toBe('$45.00');
  });
});

describe('currencySign', () => {
  it("gives the currency's own sign, or its code when the locale has none", () => {
    expect(currencySign()).toBe('$');
    expect(currencySign({ currency: 'EUR', locale: 'de-DE' })).toBe('€');
    expect(currencySign({ currency: 'NOPE', locale: 'en-US' })).toBe('NOPE');
  });
});

describe('formatHourlyRate', () => {
  it('adds the per-hour unit to the dollar amount', () => {
    expect(formatHourlyRate(4500)).toBe('$45.00/hr');
    expect(formatHourlyRate(4500, { whole: true })).toBe('$45/hr');
  });

  it('shows a dash alone for an unreadable rate', () => {
    expect(formatHourlyRate(Number.NaN)).toBe('—');
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

  it('rounds a half tenth up, as a person would', () => {
    expect(formatHours(0.15)).toBe('0.2');
    expect(formatHours(1.05)).toBe('1.1');
  });

  it('shows a dash for unreadable hours', () => {
    expect(formatHours(Number.NaN)).toBe('—');
  });

  it('says "hour" for exactly one and "hours" otherwise', () => {
    expect(hoursPhrase(1)).toBe('1.0 hour');
    expect(hoursPhrase(2.5)).toBe('2.5 hours');
  });
});
