import { describe, expect, it } from 'vitest';
import type { ServiceRequestView } from '../../../../shared/schemas/job';
import { requestBadgeTone, requestCardOf } from './request-card';

type CardInput = Parameters<typeof requestCardOf>[0];

const pending: CardInput = { status: 'Pending', jobState: 'offered', dispatch: 'searching', reassigned: false, worker: null };
const worker: ServiceRequestView['worker'] = { id: 'w1', name: 'Sam Rivera', phone: '+1 415 555 0100', photoUrl: null, rating: 4.8, reviewCount: 12 };

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

  it('shows the worker of an In Progress request (its stage and ETA are the live tracking\'s)', () => {
    // Prepare
    const onTheWay: CardInput = { status: 'In Progress', jobState: 'en_route', dispatch: 'assigned', reassigned: false, worker };

    // Act
    const card = requestCardOf(onTheWay);

    // Assess
    expect(card).toEqual({ kind: 'in-progress', worker });
  });

  it('shows a completed request as completed', () => {
    expect(requestCardOf({ ...pending, status: 'Completed', jobState: 'completed', dispatch: 'done' })).toEqual({ kind: 'completed' });
  });

  it('shows a request withdrawn before anyone accepted as cancelled, whatever its status', () => {
    expect(requestCardOf({ ...pending, jobState: 'cancelled' })).toEqual({ kind: 'cancelled' });
    expect(requestCardOf({ ...pending, jobState: 'cancelled', dispatch: 'no_worker_available' })).toEqual({ kind: 'cancelled' });
  });
});

describe('requestBadgeTone', () => {
  it('colours Pending amber, In Progress blue and Completed green', () => {
    expect(['Pending', 'In Progress', 'Completed'].map((s) => requestBadgeTone(s as 'Pending'))).toEqual(['amber', 'blue', 'green']);
  });
});
