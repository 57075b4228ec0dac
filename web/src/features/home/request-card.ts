import type { AssignedWorkerView, ServiceRequestView } from '../../../../shared/schemas/job';
import type { RequestStatus } from '../../../../shared/domain/requests';
import type { BadgeTone } from '../../components/ui/badge';

/** Spec section 9: the request list is polled every 5 s. */
export const REQUEST_POLL_MS = 5000;

/** What a request's card shows, by status (spec "Home page (request flow)"). */
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
      // The stage, distance and ETA are the live tracking's (components/location/job-tracking.tsx).
      return { kind: 'in-progress', worker: request.worker };
    default:
      return { kind: 'completed' };
  }
}

/**
 * Spec: Pending amber, In Progress blue, Completed green. The UI kit's badge has no amber tone;
 * its yellow is the amber of the spec.
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

/** The avatar letters of a worker without a photo: first and last name's initials. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '?';
  const letters = words.length === 1 ? [words[0]!] : [words[0]!, words[words.length - 1]!];
  return letters.map((word) => Array.from(word)[0]!.toUpperCase()).join('');
}

export function formatCreatedAt(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
