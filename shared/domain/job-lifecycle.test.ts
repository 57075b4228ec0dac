import { describe, expect, it } from 'vitest';
import { jobStates } from './booking-status';
import { canMove, nextStates } from './job-lifecycle';

describe('the job lifecycle', () => {
  it('offers a worker exactly the worker app\'s steps: en route, arrived, start work, complete', () => {
    expect(nextStates('accepted', 'worker')).toEqual(['en_route', 'arrived']);
    expect(nextStates('en_route', 'worker')).toEqual(['arrived']);
    expect(nextStates('arrived', 'worker')).toEqual(['in_progress']);
    expect(nextStates('in_progress', 'worker')).toEqual(['completed']);
  });

  it('refuses skipped and backward steps', () => {
    expect(canMove('accepted', 'in_progress', 'worker')).toBe(false);
    expect(canMove('arrived', 'en_route', 'worker')).toBe(false);
    expect(canMove('completed', 'in_progress', 'worker')).toBe(false);
  });

  it('lets only the timer send an accepted job back to dispatch, and only before arrival', () => {
    expect(canMove('accepted', 'booked', 'timer')).toBe(true);
    expect(canMove('en_route', 'booked', 'timer')).toBe(true);
    expect(canMove('arrived', 'booked', 'timer')).toBe(false);
    expect(canMove('accepted', 'booked', 'worker')).toBe(false);
  });

  it('ends in paid or cancelled, with nothing after', () => {
    for (const actor of ['dispatch', 'worker', 'timer', 'customer', 'payment'] as const) {
      expect(nextStates('paid', actor)).toEqual([]);
      expect(nextStates('cancelled', actor)).toEqual([]);
    }
  });

  it('knows every state', () => {
    for (const state of jobStates) expect(() => nextStates(state, 'worker')).not.toThrow();
  });
});
