import { describe, expect, it } from 'vitest';
import {
  arrivalDeadlineMs,
  offerReleaseAt,
  offerSecondsFor,
  reminderTimes,
  SCHEDULED_OFFER_SECONDS,
  startTag,
  waitsForRelease,
} from './scheduling';

const HOUR = 3_600_000;
const MINUTE = 60_000;

describe('the windows of a scheduled job', () => {
  it('offers it 24 hours before the start, or at once when the start is sooner', () => {
    // Prepare
    const now = Date.parse('2026-11-20T12:00:00Z');
    const inThreeDays = now + 72 * HOUR;
    const inFiveHours = now + 5 * HOUR;

    // Act
    const later = offerReleaseAt(inThreeDays, now);
    const atOnce = offerReleaseAt(inFiveHours, now);

    // Assess
    expect(later).toBe(inThreeDays - 24 * HOUR);
    expect(atOnce).toBe(now);
  });

  it('holds a job back from dispatch only while its offers open later; an as-soon-as-possible job never waits', () => {
    const now = Date.parse('2026-11-20T12:00:00Z');

    expect(waitsForRelease({ requestedTime: new Date(now + 30 * HOUR).toISOString() }, now)).toBe(true);
    expect(waitsForRelease({ requestedTime: new Date(now + 20 * HOUR).toISOString() }, now)).toBe(false);
    expect(waitsForRelease({ requestedTime: null }, now)).toBe(false);
    expect(waitsForRelease({}, now)).toBe(false);
  });

  it('lands the reminders 24 h and 1 h before the instant across the November daylight-saving end, not wall-clock shifted', () => {
    // Prepare: 09:00 in New York on Monday 2 November 2026, the morning after clocks went back
    // (01:00 EST = 06:00Z on 1 November), so the start is 14:00Z; a day earlier New York was on EDT.
    const start = Date.parse('2026-11-02T14:00:00Z');
    const now = Date.parse('2026-10-30T12:00:00Z');

    // Act
    const reminders = reminderTimes(start, now);

    // Assess: 24 hours before is 14:00Z on 1 November, which New York shows as 09:00 EST (the same
    // wall time only because the clocks went back in between), and 1 hour before is 13:00Z.
    expect(reminders).toEqual([
      { kind: 'day', at: Date.parse('2026-11-01T14:00:00Z') },
      { kind: 'hour', at: Date.parse('2026-11-02T13:00:00Z') },
    ]);
    expect(start - reminders[0]!.at).toBe(24 * HOUR);
    const newYork = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hour12: false });
    expect(Number(newYork.format(start))).toBe(9);
    expect(Number(newYork.format(reminders[1]!.at))).toBe(8);
    expect(offerReleaseAt(start, now)).toBe(start - 24 * HOUR);
  });

  it('keeps 24 hours for the day-before reminder when the clocks go back in between, so its wall time moves', () => {
    // Prepare: 09:00 EST on Sunday 1 November 2026, the morning the clocks went back at 02:00 EDT.
    const start = Date.parse('2026-11-01T14:00:00Z');

    // Act
    const [day] = reminderTimes(start, Date.parse('2026-10-29T00:00:00Z'));

    // Assess: 24 hours earlier New York was still on EDT, so it shows 10:00, not 09:00.
    expect(day).toEqual({ kind: 'day', at: Date.parse('2026-10-31T14:00:00Z') });
    const newYork = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hour12: false });
    expect(Number(newYork.format(day!.at))).toBe(10);
  });

  it('sends no reminder whose moment has already passed', () => {
    const now = Date.parse('2026-11-20T12:00:00Z');

    expect(reminderTimes(now + 3 * HOUR, now).map((r) => r.kind)).toEqual(['hour']);
    expect(reminderTimes(now + 30 * MINUTE, now)).toEqual([]);
  });

  it('counts the arrival grace from the start, or from a later accept, and from the accept on demand', () => {
    const start = Date.parse('2026-11-21T09:00:00Z');
    const grace = 45 * MINUTE;

    expect(arrivalDeadlineMs(start, start - 20 * HOUR, grace)).toBe(start + grace);
    expect(arrivalDeadlineMs(start, start + 10 * MINUTE, grace)).toBe(start + 10 * MINUTE + grace);
    expect(arrivalDeadlineMs(null, start, grace)).toBe(start + grace);
  });

  it('lets offers of a scheduled job stand half an hour and on-demand ones their usual time', () => {
    expect(offerSecondsFor({ requestedTime: '2026-11-21T09:00:00.000Z' }, 120)).toBe(SCHEDULED_OFFER_SECONDS);
    expect(offerSecondsFor({ requestedTime: null }, 120)).toBe(120);
  });

  it('tags a start in a few characters that differ between starts', () => {
    const a = startTag(Date.parse('2026-11-21T09:00:00Z'));
    const b = startTag(Date.parse('2026-11-21T10:00:00Z'));

    expect(a).toMatch(/^[0-9a-z]{1,8}$/);
    expect(a).not.toBe(b);
  });
});
