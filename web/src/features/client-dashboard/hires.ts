import type { ServiceRequestView } from '../../../../shared/schemas/job';
import type { RequestStatus } from '../../../../shared/schemas/request';
import { completedHeadline } from '../../components/invoices/invoice-rules';

/** Spec section 9: the request list is polled every 5 s. */
export const HIRES_POLL_MS = 5000;

/** Poll only while there is something to follow; a customer with no requests has nothing to watch. */
export function hiresPollInterval(requests: readonly ServiceRequestView[] | undefined): number | false {
  return requests && requests.length > 0 ? HIRES_POLL_MS : false;
}

/** Spec section 4: Pending amber, In Progress blue, Completed green. */
export const statusTone: Record<RequestStatus, 'amber' | 'blue' | 'green'> = {
  Pending: 'amber',
  'In Progress': 'blue',
  Completed: 'green',
};

/**
 * Where a request stands, in the words the customer reads under its badge. Nothing is shown that
 * the server has not said: the ETA only once it is known.
 */
export function hireProgress(
  request: Pick<ServiceRequestView, 'status' | 'jobState' | 'dispatch' | 'reassigned' | 'etaMinutes' | 'invoice'>,
): string[] {
  const lines: string[] = [];
  if (request.jobState === 'cancelled') return ['Cancelled'];
  if (request.dispatch === 'no_worker_available') {
    lines.push('No worker available');
  } else if (request.status === 'Pending') {
    if (request.reassigned) lines.push('Your professional did not arrive in time; we are finding another.');
    lines.push('Waiting for worker assignment');
  } else if (request.status === 'In Progress') {
    // Spec section 4, arrival status: en_route "On the way", arrived, anything else "Working".
    const step =
      request.jobState === 'accepted'
        ? 'Worker assigned'
        : request.jobState === 'en_route'
          ? 'On the way'
          : request.jobState === 'arrived'
            ? 'Arrived'
            : 'Working';
    lines.push(step);
  }
  if (request.status !== 'Completed' && request.etaMinutes !== null && Number.isFinite(request.etaMinutes)) {
    const minutes = Math.max(0, Math.round(request.etaMinutes));
    lines.push(minutes === 0 ? 'ETA: due now' : `ETA: ~${minutes} min`);
  }
  // Verifying and paying are the card's own part below (RequestInvoiceActions).
  if (request.status === 'Completed') lines.push(completedHeadline(request));
  return lines;
}
