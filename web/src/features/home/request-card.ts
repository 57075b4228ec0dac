import type { JobState } from '../../../../shared/domain/booking-status';
import type { AssignedWorkerView, ServiceRequestView } from '../../../../shared/schemas/job';
import type { RequestStatus } from '../../../../shared/schemas/request';
import type { BadgeTone } from '../../components/ui/badge';

/** Spec section 9: the request list is polled every 5 s. */
export const REQUEST_POLL_MS = 5000;
/** Spec section 9: the success banner hides after 5 s. */
export const SUCCESS_BANNER_MS = 5000;

/** What a request's card shows, by status (spec "Home page (request flow)"). */
export type RequestCard =
  | { kind: 'waiting'; reassigned: boolean }
  | { kind: 'no-worker'; reassigned: boolean }
  | { kind: 'in-progress'; worker: AssignedWorkerView | null; stage: string; eta: string | null }
  | { kind: 'completed' };

type CardFields = 'status' | 'dispatch' | 'reassigned' | 'worker' | 'jobState' | 'etaMinutes';

export function requestCardOf(request: Pick<ServiceRequestView, CardFields>): RequestCard {
  switch (request.status) {
    case 'Pending':
      return request.dispatch === 'no_worker_available'
        ? { kind: 'no-worker', reassigned: request.reassigned }
        : { kind: 'waiting', reassigned: request.reassigned };
    case 'In Progress':
      return {
        kind: 'in-progress',
        worker: request.worker,
        stage: jobStageLabel(request.jobState),
        eta: isTravelling(request.jobState) ? etaText(request.etaMinutes) : null,
      };
    default:
      return { kind: 'completed' };
  }
}

/** Spec section 4: en_route reads "On the way", arrived "Arrived", anything later "Working". */
export function jobStageLabel(state: JobState): string {
  switch (state) {
    case 'accepted':
      return 'Accepted';
    case 'en_route':
      return 'On the way';
    case 'arrived':
      return 'Arrived';
    default:
      return 'Working';
  }
}

/** An arrival estimate only means something before the professional is at the door. */
function isTravelling(state: JobState): boolean {
  return state === 'accepted' || state === 'en_route';
}

/** "Calculating..." until the server knows the ETA (spec); never less than a minute, even when due now. */
export function etaText(etaMinutes: number | null): string {
  if (etaMinutes === null || !Number.isFinite(etaMinutes)) return 'Calculating...';
  return `Arriving in about ${Math.max(1, Math.round(etaMinutes))} min`;
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
