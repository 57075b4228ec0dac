import type { JobState } from '../../../../shared/domain/booking-status';
import type { InvoiceSummary } from '../../../../shared/schemas/invoice';
import type { AssignedWorkerView, TrackedRequestView } from '../../../../shared/schemas/job';
import { BOOKING_NOT_FOUND } from '../../../../shared/schemas/tracking';
import { formatDateTime } from '../../lib/date-time';
import { formatHourlyRate, formatMoney, hoursPhrase } from '../../lib/money';
import { ratedText } from '../reviews/review';
import { ApiError } from '../../lib/api';
import { paths } from '../../lib/paths';

/**
 * One timeline for every door a job comes in by (a booking, a home-page request, a hire): where it
 * stands, what the customer is told now, and the one thing they can do about it. Pure, so the
 * tracking page, the cards and the tests agree.
 */

/** The page follows the job by polling this often until it is over. */
export const TRACK_POLL_MS = 5000;

export const trackingStepKeys = [
  'sent',
  'finding',
  'assigned',
  'on_the_way',
  'arrived',
  'working',
  'completed',
  'verified',
  'invoiced',
  'paid',
  'rated',
] as const;
export type TrackingStepKey = (typeof trackingStepKeys)[number];

export const trackingStepLabels: Record<TrackingStepKey, string> = {
  sent: 'Request received',
  finding: 'Finding a pro',
  assigned: 'Pro assigned',
  on_the_way: 'On the way',
  arrived: 'Arrived',
  working: 'Working',
  completed: 'Work completed',
  verified: 'Verify the work',
  invoiced: 'Invoice',
  paid: 'Payment',
  rated: 'Rating',
};

export interface TrackingStep {
  key: TrackingStepKey;
  label: string;
  state: 'done' | 'current' | 'upcoming';
  /** When it happened (ISO), when the server knows. */
  at: string | null;
  /** The search ended with nobody: the step is stuck until the customer tries again or a pro comes on call. */
  problem: boolean;
}

type StepFields = 'jobState' | 'dispatch' | 'createdAt' | 'times' | 'verification' | 'invoice' | 'rating' | 'offersOpenAt';

/** How far along the lifecycle a state is; a cancelled job is on no step of it. */
const stateRank: Record<JobState, number> = {
  booked: 0,
  offered: 1,
  accepted: 2,
  en_route: 3,
  arrived: 4,
  in_progress: 5,
  completed: 6,
  verified: 7,
  paid: 8,
  cancelled: -1,
};

function isPaid(view: Pick<TrackedRequestView, 'jobState' | 'invoice'>): boolean {
  return stateRank[view.jobState] >= stateRank.paid || view.invoice?.paymentStatus === 'paid';
}

function isVerified(view: Pick<TrackedRequestView, 'jobState' | 'verification' | 'invoice'>): boolean {
  const rank = stateRank[view.jobState];
  if (rank >= stateRank.verified) return true;
  return rank >= stateRank.completed && (view.verification.status === 'approved' || view.invoice?.workVerified === true);
}

/** The step a job is on while it is in each state up to the work itself. */
const stepOfState: Partial<Record<JobState, TrackingStepKey>> = {
  accepted: 'assigned',
  en_route: 'on_the_way',
  arrived: 'arrived',
  in_progress: 'working',
};

/** After the work, the steps wait on the customer and the pro, in this order. */
const closingSteps = ['verified', 'invoiced', 'paid', 'rated'] as const satisfies readonly TrackingStepKey[];

/**
 * Up to the work, the current step is where the job is (searching, assigned, on the way, arrived,
 * working); after it, the first closing step not done yet, or the last once all are. Closing steps
 * are done by their own evidence, since a job can be rated before it is paid. A cancelled job has no
 * current step: it is shown outside the timeline.
 */
export function trackingStepsOf(view: Pick<TrackedRequestView, StepFields>): TrackingStep[] {
  const rank = stateRank[view.jobState];
  const { times } = view;
  const done: Record<TrackingStepKey, boolean> = {
    sent: true,
    finding: rank >= stateRank.accepted,
    assigned: rank >= stateRank.accepted,
    on_the_way: rank >= stateRank.en_route,
    arrived: rank >= stateRank.arrived,
    working: rank >= stateRank.in_progress,
    completed: rank >= stateRank.completed,
    verified: isVerified(view),
    invoiced: view.invoice !== null || rank >= stateRank.paid,
    paid: isPaid(view),
    rated: view.rating !== null,
  };
  const at: Record<TrackingStepKey, string | null> = {
    sent: view.createdAt,
    finding: null,
    assigned: times.acceptedAt,
    on_the_way: times.enRouteAt,
    arrived: times.arrivedAt,
    working: times.startedAt,
    completed: times.endedAt,
    verified: times.verifiedAt ?? (view.verification.status === 'approved' ? view.verification.at : null),
    invoiced: null,
    paid: times.paidAt ?? view.invoice?.paidAt ?? null,
    rated: null,
  };
  // A scheduled job waiting for its offers to open is offered to nobody yet: finding is still ahead.
  const beforeAccept: TrackingStepKey = view.offersOpenAt ? 'sent' : 'finding';
  const current: TrackingStepKey | null =
    view.jobState === 'cancelled'
      ? null
      : rank < stateRank.accepted
        ? beforeAccept
        : rank < stateRank.completed
          ? (stepOfState[view.jobState] ?? 'working')
          : (closingSteps.find((key) => !done[key]) ?? 'rated');
  return trackingStepKeys.map((key) => ({
    key,
    label: trackingStepLabels[key],
    state: key === current ? 'current' : done[key] ? 'done' : 'upcoming',
    at: done[key] ? at[key] : null,
    problem: key === current && key === 'finding' && view.dispatch === 'no_worker_available',
  }));
}

/** The one thing the customer can do now; a 'link' viewer follows the job but acts on nothing. */
export type TrackingAction = 'retry' | 'cancel' | 'confirm-arrival' | 'verify' | 'pay' | 'rate' | 'none';

type ActionFields = 'viewer' | 'jobState' | 'status' | 'canRetry' | 'canCancel' | 'verification' | 'invoice' | 'rating' | 'arrivalClaim';

export function trackingActionOf(view: Pick<TrackedRequestView, ActionFields>): TrackingAction {
  if (view.viewer !== 'customer' || view.jobState === 'cancelled') return 'none';
  if (awaitsArrivalAnswer(view)) return 'confirm-arrival';
  if (view.canRetry) return 'retry';
  if (view.canCancel) return 'cancel';
  if (awaitsVerification(view)) return 'verify';
  const paid = isPaid(view);
  if (view.invoice && !paid) return 'pay';
  if (paid && view.rating === null) return 'rate';
  return 'none';
}

/** The pro pressed Mark Arrived and no location proved it: the customer is asked. */
export function awaitsArrivalAnswer(view: Pick<TrackedRequestView, 'jobState' | 'arrivalClaim'>): boolean {
  return Boolean(view.arrivalClaim) && (view.jobState === 'accepted' || view.jobState === 'en_route');
}

function awaitsVerification(view: Pick<TrackedRequestView, 'status' | 'verification' | 'invoice'>): boolean {
  return view.status === 'Completed' && view.verification.pending && !view.invoice;
}

/** Nothing more will happen: cancelled, or paid and rated. A job nobody took may still be offered again. */
export function isTrackingFinal(view: Pick<TrackedRequestView, 'jobState' | 'invoice' | 'rating'> | undefined): boolean {
  if (!view) return false;
  return view.jobState === 'cancelled' || (isPaid(view) && view.rating !== null);
}

/** "Asking 3 pros nearby" while offers are out; before the first goes out, that a search is on. */
export function offersText(outstanding: number): string {
  if (!(outstanding > 0)) return 'Looking for a pro nearby';
  return `Asking ${outstanding} ${outstanding === 1 ? 'pro' : 'pros'} nearby`;
}

/**
 * After nobody accepted, a pro coming on call nearby is offered the job automatically for a while:
 * how long is left, in whole minutes rounded up; null once the window has closed or there is none.
 */
export function reofferNote(reofferUntil: string | null, now: number): string | null {
  if (!reofferUntil) return null;
  const minutes = Math.ceil((Date.parse(reofferUntil) - now) / 60_000);
  if (!(minutes > 0)) return null;
  return `For the next ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, a pro who comes on call nearby gets it automatically.`;
}

/** A pro's standing as the customer reads it: "4.8 (12 reviews)", or "New" before any review. */
export function proRatingText(worker: Pick<AssignedWorkerView, 'rating' | 'reviewCount'>): string {
  const { rating, reviewCount } = worker;
  if (typeof rating !== 'number' || !Number.isFinite(rating) || !(reviewCount > 0)) return 'New';
  return `${rating.toFixed(1)} (${reviewCount} ${reviewCount === 1 ? 'review' : 'reviews'})`;
}

function proName(view: Pick<TrackedRequestView, 'worker'>): string {
  return view.worker?.name.trim() || 'Your pro';
}

/**
 * What the top of the tracking page says: one headline for where the job is, and a line or two more.
 * It changes only when the job does (the page reads it out then); the minutes left to a reoffer tick
 * on their own and are said apart (reofferNote).
 */
export interface TrackingNow {
  tone: 'info' | 'warning' | 'success' | 'danger';
  headline: string;
  lines: string[];
}

type NowFields = StepFields | 'status' | 'reassigned' | 'offersOutstanding' | 'worker' | 'arrivalClaim' | 'requestedTime';

export function trackingNowOf(view: Pick<TrackedRequestView, NowFields>): TrackingNow {
  const rank = stateRank[view.jobState];
  const name = proName(view);
  if (view.jobState === 'cancelled') return { tone: 'danger', headline: 'This booking was cancelled.', lines: [] };
  if (rank < stateRank.accepted) {
    // A scheduled job is not offered to anyone until a day before its start: nobody is being asked yet.
    if (view.offersOpenAt) {
      const when = formatDateTime(view.requestedTime) ?? 'later';
      return { tone: 'info', headline: `Scheduled for ${when}`, lines: ['We start finding you a pro about a day before.'] };
    }
    if (view.dispatch === 'no_worker_available') {
      return { tone: 'warning', headline: 'No worker available', lines: ['No pro nearby accepted your request in time.'] };
    }
    return {
      tone: 'info',
      headline: offersText(view.offersOutstanding),
      lines: [view.reassigned ? 'Your previous pro could not arrive in time; we are finding you another.' : 'The first pro to accept takes the job.'],
    };
  }
  if (awaitsArrivalAnswer(view)) {
    // Their location did not confirm it; the customer's answer (below the panel, for them) does.
    return { tone: 'warning', headline: `${name} says they have arrived`, lines: [] };
  }
  switch (view.jobState) {
    case 'accepted':
      return { tone: 'info', headline: `${name} accepted your request`, lines: ['They will head your way soon.'] };
    case 'en_route':
      return { tone: 'info', headline: `${name} is on the way`, lines: [] };
    case 'arrived':
      return { tone: 'info', headline: `${name} has arrived`, lines: [] };
    case 'in_progress': {
      const { verification } = view;
      const lines = verification.status === 'rejected' ? [`You asked for changes${verification.notes ? `: “${verification.notes}”` : ''}. Your pro is back on the job.`] : [];
      return { tone: 'info', headline: `${name} is working on it`, lines };
    }
    default:
      return afterTheWork(view);
  }
}

function afterTheWork(view: Pick<TrackedRequestView, NowFields>): TrackingNow {
  const { verification, invoice } = view;
  if (isPaid(view)) {
    return view.rating === null
      ? { tone: 'success', headline: 'Paid. Thank you!', lines: ['How did it go? Rate your pro.'] }
      : { tone: 'success', headline: 'All done', lines: [ratedText(view.rating)] };
  }
  if (invoice) {
    const line = `Invoice #${invoice.invoiceNumber} · ${formatMoney(invoice.totalAmount)}`;
    if (invoice.paymentStatus === 'processing') return { tone: 'info', headline: 'Payment processing', lines: [line] };
    if (invoice.paymentStatus === 'failed') return { tone: 'warning', headline: 'Payment failed', lines: [line, 'Please try paying again.'] };
    return { tone: 'info', headline: 'Your invoice is ready', lines: [line] };
  }
  if (awaitsVerification(view)) {
    const lines = verification.workHours !== null ? [`${proName(view)} recorded ${hoursPhrase(verification.workHours)} of work.`] : [];
    return { tone: 'warning', headline: 'Please verify the completed work', lines };
  }
  if (isVerified(view)) return { tone: 'info', headline: 'Work approved', lines: ['Your pro is preparing the invoice.'] };
  return { tone: 'success', headline: 'Work completed', lines: [] };
}

/** The paid invoice as a receipt: every amount in cents, the labour being what the total holds besides materials. */
export interface Receipt {
  invoiceNumber: string;
  lines: { label: string; cents: number; total?: boolean }[];
  paidAt: string | null;
}

export function receiptOf(invoice: InvoiceSummary): Receipt {
  return {
    invoiceNumber: invoice.invoiceNumber,
    lines: [
      {
        label: `Labour (${hoursPhrase(invoice.laborHours)} at ${formatHourlyRate(invoice.hourlyRate)})`,
        cents: invoice.totalAmount - invoice.materialsCost - invoice.rushFee - invoice.transactionFee,
      },
      ...(invoice.rushFee > 0 ? [{ label: 'As-soon-as-possible fee', cents: invoice.rushFee }] : []),
      { label: 'Materials', cents: invoice.materialsCost },
      ...(invoice.transactionFee > 0 ? [{ label: 'Card processing', cents: invoice.transactionFee }] : []),
      { label: 'Total', cents: invoice.totalAmount, total: true },
      { label: `Platform fee (${invoice.feePercent}%)`, cents: invoice.platformFee },
      { label: "Your pro's share", cents: invoice.workerShare },
    ],
    paidAt: invoice.paidAt,
  };
}

/** The address to keep or share: anyone holding it can follow the job; only its customer can act. */
export function trackingLink(origin: string, id: string): string {
  return `${origin}${paths.track(id)}`;
}

/** What a screen shows of a booking's number: 8 characters, letters, digits, - or _. */
export function isBookingNumber(value: string): boolean {
  return /^[A-Za-z0-9_-]{8}$/.test(value.trim());
}

/**
 * The server's own explanation of a refusal when it gave one (a 409's reason, a 429's wait), else the
 * screen's fallback: never a status line or a browser's network error.
 */
export function failureText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && typeof error.body === 'object' && error.body !== null) {
    const message = (error.body as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim()) return message.trim();
  }
  return fallback;
}

/** What the find-by-number form says when the server did not give an id. */
export interface LookupFailure {
  title: string;
  message: string;
  /** Per-field messages of a 400, for the inputs they belong to. */
  fields: Record<string, string>;
}

export function lookupFailureOf(error: unknown): LookupFailure {
  if (error instanceof ApiError && error.status === 404) return { title: 'Booking Not Found', message: BOOKING_NOT_FOUND, fields: {} };
  if (error instanceof ApiError && error.status === 429) {
    return { title: 'Too many tries', message: failureText(error, 'Please wait a few minutes, then try again.'), fields: {} };
  }
  if (error instanceof ApiError && error.status === 400) {
    return { title: 'Check the details', message: failureText(error, 'Check the booking number and phone number.'), fields: error.fields };
  }
  return { title: 'Could not look it up', message: failureText(error, 'Please try again later.'), fields: {} };
}
