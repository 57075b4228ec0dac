import { requestStatusOf } from '../../shared/domain/dispatch';
import { billableHours, jobAmountCents, workerShareCents } from '../../shared/domain/earnings';
import { distanceKm, etaMinutes, type LatLng } from '../../shared/domain/geo';
import { nextStates } from '../../shared/domain/job-lifecycle';
import type {
  AssignedWorkerView,
  CompletedJobView,
  JobOfferView,
  ServiceRequestView,
  WorkerArrivalClaimView,
  WorkerJobView,
} from '../../shared/schemas/job';
import { arrivalClaimMessage } from '../../shared/domain/arrival';
import { env } from './env';
import type { InvoiceItem } from './data/invoices';
import { jobNumber, type JobItem } from './data/jobs';
import type { WorkerItem } from './data/workers';
import { toInvoiceSummary, toWorkVerification } from './invoice-views';
import { averageRating } from '../../shared/schemas/review-rules';
import { REOFFER_WINDOW_MINUTES } from '../../shared/domain/requests';
import { SCHEDULED_OFFER_LEAD_MS, startOf, waitsForRelease } from './scheduling';

/** What each caller may see of a job: plain functions over the stored item. */

function jobPoint(job: JobItem): LatLng | null {
  return job.latitude !== null && job.longitude !== null ? { lat: job.latitude, lng: job.longitude } : null;
}

function workerPoint(worker: WorkerItem | undefined): LatLng | null {
  return worker?.location ? { lat: worker.location.lat, lng: worker.location.lng } : null;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

export function toOfferView(job: JobItem, worker: WorkerItem): JobOfferView {
  const from = workerPoint(worker);
  const to = jobPoint(job);
  return {
    id: job.id,
    category: job.category,
    service: job.service,
    customerName: job.customerName,
    address: job.address,
    description: job.description,
    hourlyRate: worker.hourlyRate,
    offerExpiresAt: job.offers[worker.id] ?? '',
    state: job.state,
    arriveBy: job.arriveBy,
    distanceKm: from && to ? round1(distanceKm(from, to)) : null,
  };
}

/** The moves the worker may make next, from the worker interface's buttons. */
function workerNextStates(job: JobItem) {
  // Completing goes through its own call but is offered as the next step all the same.
  return nextStates(job.state, 'worker');
}

export function toWorkerJobView(job: JobItem, worker: WorkerItem): WorkerJobView {
  const holds = job.acceptedBy === worker.id;
  return {
    id: job.id,
    category: job.category,
    service: job.service,
    customerName: job.customerName,
    // The customer's contact details are the holder's only, not an offer's.
    customerPhone: holds ? job.customerPhone : '',
    customerEmail: holds ? job.customerEmail : null,
    address: job.address,
    latitude: job.latitude,
    longitude: job.longitude,
    description: job.description,
    hourlyRate: job.hourlyRate ?? worker.hourlyRate,
    state: job.state,
    offerExpiresAt: job.offers?.[worker.id] ?? null,
    arriveBy: job.arriveBy,
    acceptedAt: job.acceptedAt,
    enRouteAt: job.enRouteAt,
    arrivedAt: job.arrivedAt,
    startedAt: job.startedAt,
    endedAt: job.endedAt,
    createdAt: job.createdAt,
    nextStates: holds ? workerNextStates(job) : [],
    totalHours: job.totalHours,
    clientNotes: holds && job.state === 'in_progress' ? (job.clientNotes ?? null) : null,
    canInvoice: holds && job.state === 'verified' && !job.invoiceId,
    invoiceId: holds ? (job.invoiceId ?? null) : null,
    arrivalClaim: holds ? workerArrivalClaim(job) : null,
  };
}

/** A claim waits for the customer only while its pro holds the job and has not arrived. */
function pendingClaim(job: JobItem): boolean {
  return Boolean(job.arrivalClaim && job.acceptedBy === job.arrivalClaim.workerId && onTheWay.has(job.state));
}

function workerArrivalClaim(job: JobItem): WorkerArrivalClaimView | null {
  if (!pendingClaim(job)) return null;
  const { claimedAt, reason, distanceM } = job.arrivalClaim!;
  return { claimedAt, reason, distanceM, message: arrivalClaimMessage({ reason, distanceM }, env.ARRIVAL_RADIUS_METRES, env.DISTANCE_UNIT) };
}

/** A finished job for earnings: its invoice's figures once invoiced, the job's own before. */
export function toCompletedJobView(job: JobItem, feePercent: number, invoice?: InvoiceItem): CompletedJobView {
  const endedAt = job.endedAt ?? job.updatedAt;
  const totalHours = invoice?.laborHours ?? job.totalHours ?? billableHours(job.startedAt, endedAt);
  const amount = invoice?.totalAmount ?? jobAmountCents(totalHours, job.hourlyRate ?? 0);
  return {
    id: job.id,
    category: job.category,
    service: job.service,
    customerName: job.customerName,
    address: job.address,
    hourlyRate: job.hourlyRate ?? 0,
    startedAt: job.startedAt,
    endedAt,
    totalHours,
    amount,
    workerShare: invoice?.workerShare ?? workerShareCents(amount, feePercent),
    feePercent: invoice?.feePercent ?? feePercent,
    state: job.state,
    canInvoice: job.state === 'verified' && !job.invoiceId,
    invoiceId: job.invoiceId ?? null,
    paymentStatus: invoice?.paymentStatus ?? null,
    payoutStatus: invoice?.payoutStatus ?? null,
  };
}

export function toAssignedWorker(worker: WorkerItem, photoUrl: string | null): AssignedWorkerView {
  const reviewCount = worker.ratingCount ?? 0;
  return { id: worker.id, name: worker.fullName, phone: worker.phone, photoUrl, rating: averageRating(worker.ratingSum ?? 0, reviewCount), reviewCount };
}

const unaccepted = new Set(['booked', 'offered']);

/** Offers still open at `now` (an expired one only waits for its timer). */
function offersOutstanding(job: JobItem, now: number): number {
  return Object.values(job.offers ?? {}).filter((expiresAt) => Date.parse(expiresAt) > now).length;
}

const onTheWay = new Set(['accepted', 'en_route']);

/** When a scheduled job still held back from dispatch is first offered; null once it may be (or never will be). */
function offersOpenAt(job: JobItem, now: number): string | null {
  const start = startOf(job);
  if (start === null || job.state !== 'booked' || !waitsForRelease(job, now)) return null;
  return new Date(start - SCHEDULED_OFFER_LEAD_MS).toISOString();
}

export function toServiceRequestView(
  job: JobItem,
  worker: WorkerItem | undefined,
  photoUrl: string | null,
  invoice?: InvoiceItem,
  now = Date.now(),
): ServiceRequestView {
  const assigned = job.acceptedBy && worker && worker.id === job.acceptedBy ? worker : undefined;
  const from = workerPoint(assigned);
  const to = jobPoint(job);
  const noWorker = job.state === 'booked' && job.dispatch === 'no_worker_available';
  const reofferUntil = noWorker && job.noWorkerAt ? new Date(Date.parse(job.noWorkerAt) + REOFFER_WINDOW_MINUTES * 60_000).toISOString() : null;
  return {
    id: job.id,
    kind: job.kind,
    number: jobNumber(job),
    category: job.category,
    name: job.customerName,
    email: job.customerEmail ?? '',
    phoneNumber: job.customerPhone,
    service: job.service,
    location: job.address,
    description: job.description,
    status: requestStatusOf(job.state),
    jobState: job.state,
    dispatch: job.dispatch,
    reassigned: job.reassignedCount > 0,
    worker: assigned ? toAssignedWorker(assigned, photoUrl) : null,
    etaMinutes: assigned && onTheWay.has(job.state) && from && to ? etaMinutes(from, to) : null,
    arriveBy: job.arriveBy,
    clientLatitude: job.latitude ?? 0,
    clientLongitude: job.longitude ?? 0,
    gpsEnabled: job.gpsEnabled,
    customerType: 'individual',
    workerCount: job.workerCount ?? 1,
    crew: null,
    crewLeadId: null,
    offersOutstanding: job.state === 'offered' ? offersOutstanding(job, now) : 0,
    // A scheduled job stays the customer's to cancel after a pro accepted it, until they are on the way.
    canCancel: unaccepted.has(job.state) || (job.state === 'accepted' && Boolean(job.requestedTime)),
    canRetry: noWorker,
    reofferUntil: reofferUntil && Date.parse(reofferUntil) > now ? reofferUntil : null,
    requestedTime: job.requestedTime ?? null,
    offersOpenAt: offersOpenAt(job, now),
    estimate: job.estimate ? { ...job.estimate, workerCount: job.estimate.workerCount ?? 1 } : null,
    times: {
      acceptedAt: job.acceptedAt,
      enRouteAt: job.enRouteAt,
      arrivedAt: job.arrivedAt,
      startedAt: job.startedAt,
      endedAt: job.endedAt,
      verifiedAt: job.verificationStatus === 'approved' ? (job.verificationAt ?? null) : null,
      paidAt: job.paidAt ?? null,
      cancelledAt: job.cancelledAt ?? null,
    },
    arrivalClaim: pendingClaim(job) ? { claimedAt: job.arrivalClaim!.claimedAt } : null,
    rating: job.rating ?? null,
    verification: toWorkVerification(job),
    invoice: invoice ? toInvoiceSummary(invoice) : null,
    cancelMessage: job.state === 'cancelled' && job.cancelledBy === 'owner' ? (job.cancelMessage ?? null) : null,
    createdAt: job.createdAt,
  };
}
