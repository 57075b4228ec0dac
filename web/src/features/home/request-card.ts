import type { AssignedWorkerView, ServiceRequestView } from '../../../../shared/schemas/job';
import type { RequestStatus } from '../../../../shared/domain/requests';
import type { BadgeTone } from '../../components/ui/badge';

/** The request list is polled every 5 s. */
export const REQUEST_POLL_MS = 5000;

/** What a request's card shows, by status. */
export type RequestCard =
  | { kind: 'waiting'; reassigned: boolean }
  | { kind: 'no-worker'; reassigned: boolean }
  | { kind: 'in-progress'; worker: AssignedWorkerView | null }
  | { kind: 'completed' }
  | { kind: 'cancelled' };

type CardFields = 'status' | 'jobState' | 'dispatch' | 'reassigned' | 'worker';

export function requestCardOf(request: Pick<ServiceRequestView, CardFields>): RequestCard {
  // Withdrawn before any pro accepted: whatever its status says, nothing more happens to it.
  if (request.jobState === 'cancelled') return { kind: 'cancelled' };
  switch (request.status) {
    case 'Pending':
      return request.dispatch === 'no_worker_available'
        ? { kind: 'no-worker', reassigned: request.reassigned }
        : { kind: 'waiting', reassigned: request.reassigned };
    case 'In Progress':
      // The stage, distance and ETA are the live tracking's (domain/location/job-tracking.tsx).
      return { kind: 'in-progress', worker: request.worker };
    default:
      return { kind: 'completed' };
  }
}

/**
 * Pending amber, In Progress blue, Completed green. The UI kit's badge has no amber tone; its
 * yellow stands in for amber.
 */
export function requestBadgeTone(status: RequestStatus): BadgeTone {
  switch (status) {
    case 'Pending':
      return 'amber';
    case 'In Progress':
      return 'blue';
    default:
      return 'green';
  }
}
