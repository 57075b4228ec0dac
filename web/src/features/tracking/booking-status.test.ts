import { describe, expect, it } from 'vitest';
import { statusBadgeOf, timelineSteps } from './booking-status';

describe('timelineSteps', () => {
  it('marks the steps up to and including the current one done', () => {
    const steps = timelineSteps('confirmed');
    expect(steps.map((s) => s.label)).toEqual(['Request Received', 'Professional Assigned', 'On the Way', 'Completed']);
    expect(steps.map((s) => s.state)).toEqual(['done', 'done', 'upcoming', 'upcoming']);
    expect(steps.map((s) => s.current)).toEqual([false, true, false, false]);
  });

  it('completes every step for a completed booking', () => {
    expect(timelineSteps('completed').every((s) => s.state === 'done')).toBe(true);
  });

  it('leaves a cancelled booking outside the timeline', () => {
    const steps = timelineSteps('cancelled');
    expect(steps.some((s) => s.state === 'done' || s.current)).toBe(false);
  });
});

describe('statusBadgeOf', () => {
  it('gives readable labels and the spec colours', () => {
    expect(statusBadgeOf('new')).toEqual({ label: 'New', tone: 'blue' });
    expect(statusBadgeOf('on_the_way')).toEqual({ label: 'On the Way', tone: 'orange' });
    expect(statusBadgeOf('cancelled')).toEqual({ label: 'Cancelled', tone: 'red' });
    expect(statusBadgeOf('mystery')).toEqual({ label: 'mystery', tone: 'slate' });
  });
});
