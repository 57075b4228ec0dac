import { describe, expect, it } from 'vitest';
import { statusBadgeOf } from './booking-status';

describe('statusBadgeOf', () => {
  it('gives each status a readable label and its colour', () => {
    expect(statusBadgeOf('new')).toEqual({ label: 'New', tone: 'blue' });
    expect(statusBadgeOf('on_the_way')).toEqual({ label: 'On the Way', tone: 'orange' });
    expect(statusBadgeOf('cancelled')).toEqual({ label: 'Cancelled', tone: 'red' });
    expect(statusBadgeOf('mystery')).toEqual({ label: 'mystery', tone: 'slate' });
  });
});
