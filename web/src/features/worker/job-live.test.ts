import { describe, expect, it } from 'vitest';
import { showsLiveSection, statusButtonsShown, oneMinuteAwayToast } from './job-live';

describe('showsLiveSection', () => {
  it('shares a position while the job is held and unfinished', () => {
    expect(['accepted', 'en_route', 'arrived', 'in_progress'].every((s) => showsLiveSection(s as 'accepted'))).toBe(true);
    expect(['offered', 'completed', 'verified', 'paid', 'cancelled'].some((s) => showsLiveSection(s as 'accepted'))).toBe(false);
  });
});

describe('statusButtonsShown', () => {
  it('offers "1 minute away" and "I just arrived" only before the arrival', () => {
    expect(statusButtonsShown('accepted')).toBe(true);
    expect(statusButtonsShown('en_route')).toBe(true);
    expect(statusButtonsShown('arrived')).toBe(false);
    expect(statusButtonsShown('in_progress')).toBe(false);
  });
});

describe('oneMinuteAwayToast', () => {
  it('says what the customer was told, or that nothing went', () => {
    expect(oneMinuteAwayToast(true)).toEqual({ title: 'Customer notified', description: 'They know you are 1 minute away.' });
    expect(oneMinuteAwayToast(false)).toMatchObject({ title: 'Update not sent', variant: 'destructive' });
  });
});
