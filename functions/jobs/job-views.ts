import { requestStatusOf } from '../../shared/domain/dispatch';
import { billableHours, jobAmountCents, workerShareCents } from '../../shared/domain/earnings';
import { distanceKm, etaMinutes, type LatLng } from '../../shared/domain/geo';
import { nextStates } from '../../shared/domain/job-lifecycle';
import type {
  AssignedWorkerView,
  CompletedJobView,
  JobOfferView,
  ServiceRequestView,
  TrackedRequestView,
  TrackViewer,
  WorkerArrivalClaimView,
  WorkerJobView,
} from '../../shared/schemas/job';
import { townOf } from '../../shared/domain/town';
import type { CrewMemberView, JobTimes } from '../../shared/schemas/views/job';
import type { WorkVerificationView } from '../../shared/schemas/views/invoice';
import { arrivalClaimMessage } from '../../shared/domain/arrival';
import { env } from '../common/env';
import { rushFeeOf, type InvoiceItem } from '../payments/data/invoices';
import { jobNumber, type JobItem } from './data/jobs';
import type { JobLocationItem } from './data/job-locations';
import type { WorkerItem } from '../workers/data/workers';
import { toInvoiceSummary, toWorkVerification } from '../payments/invoice-views';
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

/** An open offer: what deciding needs (trade, town, description, distance, time), nothing of the customer's own. */
export function toOfferView(job: JobItem, worker: WorkerItem): JobOfferView {
  const from = workerPoint(worker);
  const to = jobPoint(job);
  return {
    id: job.id,
    category: job.category,
    service: job.service,
    town: townOf(job.address),
    description: job.description,
    hourlyRate: worker.hourlyRate,
    offerExpiresAt: job.offers[worker.id] ?? '',
    state: job.state,
    arriveBy: job.arriveBy,
    distanceKm: from && to ? round1(distanceKm(from, to)) : null,
    workerCount: job.workerCount ?? 1,
    // Each pro's hours (a crew's estimate prices them all, but hours are every one's own).
    estimatedHours: job.estimate?.hours ?? null,
  };
}

/** The moves the worker may make next, from the worker interface's buttons. */
function workerNextStates(job: JobItem) {
  // Completing goes through its own call but is offered as the next step all the same.
  return nextStates(job.state, 'worker');
}

/**
 * A job as its pro sees it. The customer's name, contact, street and position are for the pro the
 * job is accepted by (who still invoices it after the work), never for one it is merely offered to.
 */
export function toWorkerJobView(job: JobItem, worker: WorkerItem): WorkerJobView {
  const holds = job.acceptedBy === worker.id;
  return {
    id: job.id,
    category: job.category,
    service: job.service,
    ...(holds
      ? {
          customerName: job.customerName,
          customerPhone: job.customerPhone,
          ...(job.customerEmail ? { customerEmail: job.customerEmail } : {}),
          address: job.address,
          latitude: job.latitude,
          longitude: job.longitude,
        }
      : {}),
    town: townOf(job.address),
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
    rushFee: rushFeeOf(job),
    workerCount: job.workerCount ?? 1,
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
  // The work's price (labour, rush, materials): the card fee the customer also paid goes to the card processor, not the pro.
  const amount = invoice ? invoice.totalAmount - (invoice.transactionFee ?? 0) : jobAmountCents(totalHours, job.hourlyRate ?? 0);
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

/** The assigned pro, whole: for their customer and the owner (the public view takes out all but the first name). */
export function toAssignedWorker(worker: WorkerItem, photoUrl: string | null): AssignedWorkerView & { phone: string } {
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

function timesOf(job: JobItem): JobTimes {
  return {
    acceptedAt: job.acceptedAt,
    enRouteAt: job.enRouteAt,
    arrivedAt: job.arrivedAt,
    startedAt: job.startedAt,
    endedAt: job.endedAt,
    verifiedAt: job.verificationStatus === 'approved' ? (job.verificationAt ?? null) : null,
    paidAt: job.paidAt ?? null,
    cancelledAt: job.cancelledAt ?? null,
  };
}

/** The states in which a pro holds a job and their position is the customer's to see. */
const holding = new Set(['accepted', 'en_route', 'arrived', 'in_progress']);

/** Whether this pro holds the job now: the window in which they and its customer see each other's details. */
export function holdsNow(job: JobItem, workerId: string): boolean {
  return job.acceptedBy === workerId && holding.has(job.state);
}

/**
 * One pro's place in a crew, from their job, its holder's profile and the latest fix they shared
 * on it (only while they hold it, and only a fix of theirs).
 */
export function toCrewMemberView(
  job: JobItem,
  worker: WorkerItem | undefined,
  photoUrl: string | null,
  location: JobLocationItem | undefined,
): CrewMemberView {
  const assigned = job.acceptedBy && worker && worker.id === job.acceptedBy ? worker : undefined;
  const fix = assigned && holding.has(job.state) && location && location.workerId === assigned.id ? location : undefined;
  const from = fix ? { lat: fix.lat, lng: fix.lng } : workerPoint(assigned);
  const to = jobPoint(job);
  return {
    jobId: job.id,
    index: job.crew?.index ?? 1,
    number: jobNumber(job),
    jobState: job.state,
    dispatch: job.dispatch,
    worker: assigned ? toAssignedWorker(assigned, photoUrl) : null,
    arriveBy: job.arriveBy,
    etaMinutes: assigned && onTheWay.has(job.state) && from && to ? etaMinutes(from, to) : null,
    times: timesOf(job),
    totalHours: job.totalHours,
    position: fix ? { lat: fix.lat, lng: fix.lng, at: fix.at } : null,
    arrivalClaim: pendingClaim(job) ? { claimedAt: job.arrivalClaim!.claimedAt } : null,
    invoiceId: job.invoiceId ?? null,
  };
}

/** The customer may cancel a job nobody holds, and a scheduled one a pro holds until they are on the way. */
function cancellable(job: JobItem): boolean {
  return unaccepted.has(job.state) || (job.state === 'accepted' && Boolean(job.requestedTime));
}

const endedWithNobody = (job: JobItem) => job.state === 'booked' && job.dispatch === 'no_worker_available';

/** Until when a job that found nobody is offered to a pro coming on call nearby (null when that is over or never began). */
function reofferUntilOf(job: JobItem, now: number): string | null {
  if (!endedWithNobody(job) || !job.noWorkerAt) return null;
  const until = new Date(Date.parse(job.noWorkerAt) + REOFFER_WINDOW_MINUTES * 60_000).toISOString();
  return Date.parse(until) > now ? until : null;
}

/** The members of a crew that the customer verifies together: every one a pro took on, not cancelled. */
export function verifiableMembers(crew: readonly JobItem[]): JobItem[] {
  return crew.filter((j) => j.acceptedBy && j.state !== 'cancelled');
}

const BEFORE_COMPLETED = new Set(['booked', 'offered', 'accepted', 'en_route', 'arrived', 'in_progress']);

/** Pros of a crew still working (holding their job before completing it): the crew's one verification waits for them. */
export function stillWorking(crew: readonly JobItem[]): JobItem[] {
  return verifiableMembers(crew).filter((j) => BEFORE_COMPLETED.has(j.state));
}

/** The crew's one verification, on the lead: asked once every pro who took a job has completed it. */
function crewVerification(own: WorkVerificationView, crew: readonly JobItem[]): WorkVerificationView {
  const members = verifiableMembers(crew);
  const completed = members.filter((j) => j.state === 'completed');
  const working = stillWorking(crew).length;
  const pending = completed.length > 0 && working === 0;
  const hours = members.reduce((sum, j) => sum + (j.totalHours ?? 0), 0);
  const message = pending
    ? `${completed.length === 1 ? 'Your pro' : `All ${completed.length} pros`} marked the work complete${hours ? ` after ${round1(hours).toFixed(1)} hours in all` : ''}. Please verify the completed work.`
    : completed.length > 0
      ? `${completed.length} of ${completed.length + working} pros finished; you can verify the work once every pro has.`
      : own.message;
  return { ...own, pending, workHours: members.some((j) => j.totalHours !== null) ? round1(hours) : own.workHours, message };
}

/**
 * What the request view of a crew's job adds: on the lead, every pro's place (`views`, index order)
 * and the crew's jobs, which the crew-wide answers (offers out, cancel, try again, verify) are
 * taken from. A member's own view needs nothing more: it names the lead.
 */
export interface CrewContext {
  jobs: readonly JobItem[];
  views: CrewMemberView[];
}

export function toServiceRequestView(
  job: JobItem,
  worker: WorkerItem | undefined,
  photoUrl: string | null,
  invoice?: InvoiceItem,
  now = Date.now(),
  crewContext?: CrewContext,
): ServiceRequestView {
  const assigned = job.acceptedBy && worker && worker.id === job.acceptedBy ? worker : undefined;
  const from = workerPoint(assigned);
  const to = jobPoint(job);
  const member = Boolean(job.crew && job.crew.leadId !== job.id);
  // The lead answers for the whole crew; a job of one pro for itself.
  const crewJobs = !member && crewContext && crewContext.jobs.length > 1 ? crewContext.jobs : undefined;
  const jobs = crewJobs ?? [job];
  const live = jobs.filter((j) => j.state !== 'cancelled');
  // The request's state is the lead's own, unless the lead is the one nobody took (cancelled when the
  // crew's work was approved, say): then the first pro still on it speaks for the request.
  const face = crewJobs && job.state === 'cancelled' ? (live[0] ?? job) : job;
  const reoffers = jobs.map((j) => reofferUntilOf(j, now)).filter((at): at is string => at !== null).sort();
  const ownVerification = toWorkVerification(job);
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
    status: requestStatusOf(face.state),
    jobState: face.state,
    dispatch: face.dispatch,
    reassigned: job.reassignedCount > 0,
    worker: assigned ? toAssignedWorker(assigned, photoUrl) : null,
    etaMinutes: assigned && onTheWay.has(job.state) && from && to ? etaMinutes(from, to) : null,
    arriveBy: job.arriveBy,
    clientLatitude: job.latitude ?? 0,
    clientLongitude: job.longitude ?? 0,
    gpsEnabled: job.gpsEnabled,
    customerType: 'individual',
    workerCount: job.workerCount ?? job.crew?.size ?? 1,
    crew: crewJobs ? crewContext!.views : null,
    crewLeadId: member ? job.crew!.leadId : null,
    offersOutstanding: jobs.reduce((sum, j) => sum + (j.state === 'offered' ? offersOutstanding(j, now) : 0), 0),
    // A scheduled job stays the customer's to cancel after a pro accepted it, until they are on the way.
    // A crew is cancelled whole or not at all; a member is managed from the lead's page.
    canCancel: !member && (crewJobs ? live.length > 0 && live.every(cancellable) : cancellable(job)),
    canRetry: !member && jobs.some(endedWithNobody),
    reofferUntil: member ? null : (reoffers.at(-1) ?? null),
    requestedTime: job.requestedTime ?? null,
    offersOpenAt: offersOpenAt(job, now),
    estimate: job.estimate ? { ...job.estimate, workerCount: job.estimate.workerCount ?? 1 } : null,
    times: timesOf(job),
    arrivalClaim: pendingClaim(job) ? { claimedAt: job.arrivalClaim!.claimedAt } : null,
    rating: job.rating ?? null,
    // A crew's work is verified once, on the lead, for every pro; a member's page asks nothing.
    verification: crewJobs
      ? crewVerification(ownVerification, crewJobs)
      : member
        ? { ...ownVerification, pending: false, message: ownVerification.pending ? 'Verify the work for the whole crew on the request\'s page.' : ownVerification.message }
        : ownVerification,
    invoice: invoice ? toInvoiceSummary(invoice) : null,
    cancelMessage: job.state === 'cancelled' && job.cancelledBy === 'owner' ? (job.cancelMessage ?? null) : null,
    createdAt: job.createdAt,
  };
}

/** A pro as the public by-id view names them: their first name, no phone, no photo. */
function publicWorker(worker: AssignedWorkerView | null): AssignedWorkerView | null {
  if (!worker) return null;
  return { id: worker.id, name: worker.name.trim().split(/\s+/)[0] ?? '', photoUrl: null, rating: worker.rating, reviewCount: worker.reviewCount };
}

/**
 * The request by its id, as this viewer may see it. Its customer and the owner see it whole; the pro
 * holding the job sees the customer's details but of the pros only what the link does; anyone else
 * holding the link follows its progress with the town for the address, the pro's first name, and no
 * one's position (the ETA is minutes, not a place).
 */
export function toTrackedView(view: ServiceRequestView, job: JobItem, viewer: TrackViewer): TrackedRequestView {
  // The customer's position is taken from the job, where unknown is absent rather than 0.
  const { name, email, phoneNumber, location, clientLatitude: _lat, clientLongitude: _lng, description, ...rest } = view;
  const town = townOf(job.address);
  const pros = { worker: publicWorker(rest.worker), crew: rest.crew?.map((member) => ({ ...member, worker: publicWorker(member.worker), position: null })) ?? null };
  if (viewer === 'link') return { ...rest, ...pros, town, viewer };
  const point = jobPoint(job);
  const personal = {
    name,
    ...(email ? { email } : {}),
    phoneNumber,
    location,
    ...(point ? { clientLatitude: point.lat, clientLongitude: point.lng } : {}),
    description,
  };
  return viewer === 'pro' ? { ...rest, ...personal, ...pros, town, viewer } : { ...rest, ...personal, town, viewer };
}
