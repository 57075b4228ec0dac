import { describe, expect, it } from 'vitest';
import { bookingStatusOf, bookingTimeline, jobStates } from './booking-status';

describe('a booking\'s public status', () => {
  it.each([
    ['booked', 'new'],
    ['offered', 'new'],
    ['accepted', 'confirmed'],
    ['en_route', 'on_the_way'],
    ['arrived', 'on_the_way'],
    ['in_progress', 'on_the_way'],
    ['completed', 'completed'],
    ['verified', 'completed'],
    ['paid', 'completed'],
    ['cancelled', 'cancelled'],
  ] as const)('is derived from job state %s as %s', (state, status) => {
    expect(bookingStatusOf(state)).toBe(status);
  });

  it('covers every job state', () => {
    expect(jobStates.map(bookingStatusOf).every(Boolean)).toBe(true);
  });

  it('has a four-step timeline without cancelled', () => {
    expect(bookingTimeline.map((s) => s.label)).toEqual([
      'Request Received',
      'Professional Assigned',
      'On the Way',
      'Completed',
    ]);
  });
});
