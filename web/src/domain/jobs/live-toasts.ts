import type { ServerEvent, ServerEvents } from '../../../../shared/realtime';
import { formatMoney } from '../../lib/money';
import type { ToastInput } from '../../components/ui/toast-store';

/**
 * The customer's live toasts, shown by the screens that list their requests (the home page and the
 * client dashboard's hires), each for the time below: longer for what needs acting on (an invoice,
 * work to verify). Every one of these events also refreshes the request list at once.
 */
export const LIVE_TOAST_MS = {
  invoiceReady: 15_000,
  workerAssigned: 10_000,
  noWorker: 8_000,
  reassigned: 10_000,
  verification: 15_000,
  searching: 8_000,
  cancelled: 8_000,
} as const;

/** The events about a customer's request that the request screens follow. */
export const LIVE_REQUEST_EVENTS = [
  'work_status',
  'invoice_created',
  'worker_assigned',
  'no_worker_available',
  'job_reassigned',
  'job_searching',
  'job_cancelled',
  'work_completion_verification',
  'worker_verification_request',
  'invoice_verification_request',
  'service_accepted',
  'job:accepted',
  'payment_completed',
] as const satisfies readonly ServerEvent[];

export type LiveRequestEvent = (typeof LIVE_REQUEST_EVENTS)[number];

/** The request (job) an event is about. */
export function liveRequestId<E extends LiveRequestEvent>(event: E, data: ServerEvents[E]): string | null {
  const value = event === 'job:accepted' ? (data as ServerEvents['job:accepted']).jobId : (data as { requestId?: unknown }).requestId;
  return typeof value === 'string' && value ? value : null;
}

/** Events that change an invoice too (its list and dialog refresh with the requests). */
export function touchesInvoices(event: LiveRequestEvent): boolean {
  return event === 'invoice_created' || event === 'invoice_verification_request' || event === 'payment_completed';
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() ? value.trim() : fallback;
}

/**
 * The toast for an event, or null for those that only refresh the list: the other three that
 * come with an acceptance (worker_assigned says it), the invoice's own verification request
 * (invoice_created says it, at the same moment) and the payment (the list shows it). The
 * work_status toasts (1 minute away 10 s, arrived 15 s, work started 10 s) belong to the card's
 * live tracking (domain/location/job-tracking.tsx), which is on screen whenever they can come:
 * toasting them here too would only have one replace the other. `label` names the request.
 */
export function liveToastFor<E extends LiveRequestEvent>(event: E, data: ServerEvents[E], label: string): ToastInput | null {
  switch (event) {
    case 'invoice_created': {
      const amount = (data as ServerEvents['invoice_created']).invoice?.totalAmount;
      const what = typeof amount === 'number' && Number.isFinite(amount) ? `Your invoice of ${formatMoney(amount)}` : 'Your invoice';
      return { title: 'Invoice ready', description: `${what} is ready: verify the work and pay. ${label}.`, duration: LIVE_TOAST_MS.invoiceReady };
    }
    case 'worker_assigned': {
      const name = (data as ServerEvents['worker_assigned']).worker?.name;
      const who = typeof name === 'string' && name.trim() ? name.trim() : 'A professional';
      return { title: 'Worker assigned', description: `${who} accepted your request. ${label}.`, duration: LIVE_TOAST_MS.workerAssigned };
    }
    case 'no_worker_available':
      return {
        title: 'No worker available',
        description: `${text((data as ServerEvents['no_worker_available']).message, 'No worker is available right now. Please try again later.')} ${label}.`,
        duration: LIVE_TOAST_MS.noWorker,
      };
    case 'job_reassigned':
      return {
        title: 'Job reassigned',
        description: `${text((data as ServerEvents['job_reassigned']).message, 'We are finding you another professional.')} ${label}.`,
        duration: LIVE_TOAST_MS.reassigned,
      };
    case 'job_searching':
      return {
        title: 'Searching again',
        description: `${text((data as ServerEvents['job_searching']).message, 'We are asking pros nearby again.')} ${label}.`,
        duration: LIVE_TOAST_MS.searching,
      };
    case 'job_cancelled':
      return {
        title: 'Request cancelled',
        description: `${text((data as ServerEvents['job_cancelled']).message, 'No pro will be sent.')} ${label}.`,
        duration: LIVE_TOAST_MS.cancelled,
      };
    case 'work_completion_verification':
    case 'worker_verification_request':
      return {
        title: 'Verification requested',
        description: `${text((data as { message?: unknown }).message, 'Please verify the completed work.')} ${label}.`,
        duration: LIVE_TOAST_MS.verification,
      };
    default:
      return null;
  }
}

/**
 * Whether a request still has live events to come, so its room is worth holding: from Pending
 * (assigned, no worker, reassigned) through the work to the invoice and its payment. Holding only
 * In Progress requests would be too few: "No worker available", "Job reassigned" and
 * "Invoice ready" could then never arrive live.
 */
export function followsLive(request: { jobState: string; invoice: { paymentStatus: string } | null }): boolean {
  return request.jobState !== 'cancelled' && request.invoice?.paymentStatus !== 'paid';
}
