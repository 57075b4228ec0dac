import { describe, expect, it } from 'vitest';
import {
  actionsFor,
  arrivalCountdownApplies,
  crewPlaceText,
  estimatedHoursText,
  formatCountdown,
  formatKm,
  isOverdue,
  jobStateLabel,
  jobStateTone,
  mapsUrl,
  remainingMs,
  serviceLabel,
} from './job-display';

const NOW = Date.parse('2030-01-01T12:00:00.000Z');

describe('remainingMs', () => {
  it('counts the milliseconds left until a future time', () => {
    // Prepare
    const at = '2030-01-01T12:01:30.000Z';
    // Act
    const left = remainingMs(at, NOW);
    // Assess
    expect(left).toBe(90_000);
  });

  it('never goes below zero once the time has passed', () => {
    expect(remainingMs('2030-01-01T11:59:00.000Z', NOW)).toBe(0);
  });

  it('treats a missing or unreadable time as already reached', () => {
    expect(remainingMs(null, NOW)).toBe(0);
    expect(remainingMs('not a date', NOW)).toBe(0);
  });
});

describe('formatCountdown', () => {
  it('shows minutes and seconds with two digits each', () => {
    expect(formatCountdown(90_000)).toBe('01:30');
    expect(formatCountdown(45 * 60_000)).toBe('45:00');
  });

  it('rounds a part second up so 00:00 appears only at the end', () => {
    expect(formatCountdown(500)).toBe('00:01');
    expect(formatCountdown(0)).toBe('00:00');
  });

  it('shows 00:00 for a negative remainder', () => {
    expect(formatCountdown(-5_000)).toBe('00:00');
  });
});

describe('job state badges', () => {
  it('colours the states a worker sees and keeps the others neutral', () => {
    // Act
    const tones = (['accepted', 'en_route', 'arrived', 'in_progress', 'completed'] as const).map(jobStateTone);
    // Assess
    expect(tones).not.toContain('slate');
    expect(jobStateTone('offered')).toBe('slate');
    expect(jobStateTone('cancelled')).toBe('slate');
  });

  it('names each state in words', () => {
    expect(jobStateLabel('en_route')).toBe('En Route');
    expect(jobStateLabel('in_progress')).toBe('In Progress');
  });
});

describe('arrival countdown and overdue', () => {
  const due = '2030-01-01T11:59:59.000Z';

  it('runs the countdown only until the worker arrives', () => {
    expect(arrivalCountdownApplies('accepted', due)).toBe(true);
    expect(arrivalCountdownApplies('en_route', due)).toBe(true);
    expect(arrivalCountdownApplies('arrived', due)).toBe(false);
    expect(arrivalCountdownApplies('accepted', null)).toBe(false);
  });

  it('marks an accepted job past its arriveBy as overdue', () => {
    expect(isOverdue({ state: 'accepted', arriveBy: due }, NOW)).toBe(true);
  });

  it('does not mark a job overdue before its arriveBy or once it moved on', () => {
    expect(isOverdue({ state: 'accepted', arriveBy: '2030-01-01T12:30:00.000Z' }, NOW)).toBe(false);
    expect(isOverdue({ state: 'arrived', arriveBy: due }, NOW)).toBe(false);
    expect(isOverdue({ state: 'accepted', arriveBy: null }, NOW)).toBe(false);
  });
});

describe('actionsFor', () => {
  it('offers a button per allowed next state, named for what it marks', () => {
    // Act
    const actions = actionsFor(['en_route', 'arrived']);
    // Assess
    expect(actions.map((a) => a.label)).toEqual(['Mark En Route', 'Mark Arrived']);
  });

  it('completes through the complete call, not the state call', () => {
    expect(actionsFor(['completed'])).toEqual([{ kind: 'complete', label: 'Complete Job' }]);
    expect(actionsFor(['in_progress'])).toEqual([{ kind: 'state', state: 'in_progress', label: 'Start Work' }]);
  });

  it('ignores states a worker has no button for', () => {
    expect(actionsFor(['booked', 'cancelled'])).toEqual([]);
  });
});

describe('mapsUrl', () => {
  it('searches for the encoded address', () => {
    // Act
    const url = mapsUrl({ address: '1 Main St, Springfield & Co', latitude: 1, longitude: 2 });
    // Assess
    expect(url).toBe('https://www.google.com/maps/search/?api=1&query=1%20Main%20St%2C%20Springfield%20%26%20Co');
  });

  it('falls back to the coordinates when there is no address', () => {
    expect(mapsUrl({ address: ' ', latitude: 40.5, longitude: -73.25 })).toBe(
      'https://www.google.com/maps/search/?api=1&query=40.5%2C-73.25',
    );
  });

  it('gives no link when neither is known', () => {
    expect(mapsUrl({ address: '', latitude: null, longitude: null })).toBeNull();
  });
});

describe('number formats', () => {
  it('shows distances with one decimal and hides unknown ones', () => {
    expect(formatKm(3.14159)).toBe('3.1 km');
    expect(formatKm(0)).toBe('0.0 km');
    expect(formatKm(null)).toBeNull();
  });
});

describe('serviceLabel', () => {
  it('shows a booking by its trade alone', () => {
    expect(serviceLabel({ service: 'Plumbing', category: 'plumbing' })).toBe('Plumbing');
    expect(serviceLabel({ service: 'Handyman', category: 'handyman' })).toBe('Handyman');
  });

  it('adds the trade to a request service that does not name it', () => {
    expect(serviceLabel({ service: 'Gardening', category: 'handyman' })).toBe('Gardening (General Handyman)');
    expect(serviceLabel({ service: 'Pool Repair/Cleaner', category: 'cleaning' })).toBe('Pool Repair/Cleaner (Cleaning)');
  });
});

describe('a crew job on the pro\'s screens', () => {
  it('says the pro is one of several when the customer asked for more than one', () => {
    expect(crewPlaceText(3)).toBe('One of 3 pros on this job');
  });

  it('says nothing of a crew for a pro alone', () => {
    expect(crewPlaceText(1)).toBeNull();
  });

  it('gives the hours the estimate expects, when there is one', () => {
    expect(estimatedHoursText(2.5)).toBe('About 2.5 h');
    expect(estimatedHoursText(null)).toBeNull();
  });
});
