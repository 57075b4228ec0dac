import type { ServiceRequestView } from '../../../../shared/schemas/job';
import type { RequestStatus } from '../../../../shared/domain/requests';
import { completedHeadline } from '../../domain/invoices/invoice-rules';

/** The request list is polled every 5 s. */
export const HIRES_POLL_MS = 5000;

/** Poll only while there is something to follow; a customer with no requests has nothing to watch. */
export function hiresPollInterval(requests: readonly ServiceRequestView[] | undefined): number | false {
  return requests && requests.length > 0 ? HIRES_POLL_MS : false;
}

/** Pending amber, In Progress blue, Completed green. */
export const statusTone: Record<RequestStatus, 'amber' | 'blue' | 'green'> = {
  Pending: 'amber',
  'In Progress': 'blue',
  Completed: 'green',
};

/**
 * Where a request stands, in the words the customer reads under its badge. Nothing is shown that
 * the server has not said.
 */
export function hireProgress(
  request: Pick<ServiceRequestView, 'status' | 'jobState' | 'dispatch' | 'reassigned' | 'invoice'>,
): string[] {
  const lines: string[] = [];
  if (request.jobState === 'cancelled') return ['Cancelled'];
  if (request.dispatch === 'no_worker_available') {
    lines.push('No worker available');
  } else if (request.status === 'Pending') {
    if (request.reassigned) lines.push('Your professional did not arrive in time; we are finding another.');
    lines.push('Waiting for worker assignment');
  }
  // An In Progress hire's stage, distance and ETA are its live tracking's (domain/location/job-tracking.tsx).
  // Verifying and paying are the card's own part below (RequestInvoiceActions).
  if (request.status === 'Completed') lines.push(completedHeadline(request));
  return lines;
}
