import { describe, expect, it } from 'vitest';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { etaText, initialsOf, jobStageLabel, requestBadgeTone, requestCardOf } from './request-card';

type CardInput = Parameters<typeof requestCardOf>[0];

const pending: CardInput = { status: 'Pending', dispatch: 'searching', reassigned: false, worker: null, jobState: 'offered', etaMinutes: null };
const worker: ServiceRequestView['worker'] = { id: 'w1', name: 'Sam Rivera', phone: '+1 415 555 0100', photoUrl: null };

describe('requestCardOf', () => {
  it('shows a pending request as waiting for a worker', () => {
    expect(requestCardOf(pending)).toEqual({ kind: 'waiting', reassigned: false });
  });

  it('says no worker is available once dispatch has run out of workers', () => {
    expect(requestCardOf({ ...pending, dispatch: 'no_worker_available' })).toEqual({ kind: 'no-worker', reassigned: false });
  });

  it('tells the customer when a late professional was replaced', () => {
    expect(requestCardOf({ ...pending, reassigned: true })).toEqual({ kind: 'waiting', reassigned: true });
  });

  it('shows the worker, the stage and the ETA while the professional travels', () => {
    // Prepare
    const onTheWay: CardInput = { status: 'In Progress', dispatch: 'assigned', reassigned: false, worker, jobState: 'en_route', etaMinutes: 12 };

    // Act
    const card = requestCardOf(onTheWay);

    // Assess
    expect(card).toEqual({ kind: 'in-progress', worker, stage: 'On the way', eta: 'Arriving in about 12 min' });
  });

  it('shows "Calculating..." until the ETA is known, and no ETA once the professional is there', () => {
    const accepted: CardInput = { status: 'In Progress', dispatch: 'assigned', reassigned: false, worker, jobState: 'accepted', etaMinutes: null };
    expect(requestCardOf(accepted)).toMatchObject({ stage: 'Accepted', eta: 'Calculating...' });
    expect(requestCardOf({ ...accepted, jobState: 'arrived', etaMinutes: 3 })).toMatchObject({ stage: 'Arrived', eta: null });
    expect(requestCardOf({ ...accepted, jobState: 'in_progress' })).toMatchObject({ stage: 'Working', eta: null });
  });

  it('shows a completed request as completed', () => {
    expect(requestCardOf({ ...pending, status: 'Completed', jobState: 'completed', dispatch: 'done' })).toEqual({ kind: 'completed' });
  });
});

describe('etaText', () => {
  it('rounds to whole minutes and never says less than one', () => {
    expect(etaText(7.4)).toBe('Arriving in about 7 min');
    expect(etaText(0)).toBe('Arriving in about 1 min');
    expect(etaText(-3)).toBe('Arriving in about 1 min');
    expect(etaText(null)).toBe('Calculating...');
  });
});

describe('jobStageLabel', () => {
  it('reads any state after arriving as working', () => {
    expect(jobStageLabel('completed')).toBe('Working');
  });
});

describe('requestBadgeTone', () => {
  it('colours the statuses as the spec does', () => {
    expect(['Pending', 'In Progress', 'Completed'].map((s) => requestBadgeTone(s as 'Pending'))).toEqual(['amber', 'blue', 'green']);
  });
});

describe('initialsOf', () => {
  it("takes the first and last names' initials", () => {
    expect(initialsOf('sam de la Rivera')).toBe('SR');
    expect(initialsOf('  Cher ')).toBe('C');
    expect(initialsOf('')).toBe('?');
  });
});
