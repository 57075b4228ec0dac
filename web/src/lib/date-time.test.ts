import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatDateTime } from './date-time';

describe('formatDateTime', () => {
  it('writes an instant as a medium date and a short time', () => {
    // Prepare
    const at = new Date(2025, 2, 4, 15, 7, 5);

    // Act
    const shown = formatDateTime(at.toISOString(), 'date-time', 'en-US');

    // Assess
    expect(shown).toBe('Mar 4, 2025, 3:07 PM');
  });

  it('writes the date alone, the time alone, or the time to the second', () => {
    const at = new Date(2025, 2, 4, 15, 7, 5);

    expect(formatDateTime(at, 'date', 'en-US')).toBe('Mar 4, 2025');
    expect(formatDateTime(at.getTime(), 'time', 'en-US')).toBe('3:07 PM');
    expect(formatDateTime(at, 'time-seconds', 'en-US')).toBe('3:07:05 PM');
  });

  it('writes in the locale given', () => {
    const at = new Date(2025, 2, 4, 15, 7, 5);

    expect(formatDateTime(at, 'date', 'de-DE')).toBe('04.03.2025');
  });

  it('gives null for a missing or unreadable instant, so each screen says what stands in for it', () => {
    expect(formatDateTime(null)).toBeNull();
    expect(formatDateTime(undefined)).toBeNull();
    expect(formatDateTime('')).toBeNull();
    expect(formatDateTime('not a date')).toBeNull();
    expect(formatDateTime(Number.NaN)).toBeNull();
  });
});

describe('formatCalendarDate', () => {
  it('shows the stored day itself, whatever the reader’s time zone', () => {
    expect(formatCalendarDate('2026-03-01')).toMatch(/1/);
    expect(formatCalendarDate('2026-03-01')).not.toMatch(/28|29/);
  });

  it('shows text that is not a day as it is', () => {
    expect(formatCalendarDate('not a date')).toBe('not a date');
  });
});
