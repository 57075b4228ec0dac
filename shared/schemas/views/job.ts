import * as z from 'zod/mini';
import { jobEstimateView } from '../estimate';
import { jobStates } from '../../domain/booking-status';
import { distanceBandIds } from '../../domain/distance-bands';
import { paymentStatuses, payoutStatuses } from '../../domain/invoice';
import { requestStatuses } from '../../domain/requests';
import type { ArrivalClaimReason } from '../../domain/arrival';
import { invoiceSummary, workVerificationView } from './invoice';

/**
 * The answers of the job calls: the worker app's and the customer's. Money is integer cents;
 * times are ISO strings. Strict objects: a field no view names fails the tests that check answers.
 */

const jobState = z.enum(jobStates);
const time = z.nullable(z.string());

/**
 * An offer as the worker sees it (GET /api/jobs/offers/{workerId}): what deciding needs, and nothing
 * of the customer's own (name, phone, email, street, position) before accepting.
 */
export const jobOfferView = z.strictObject({
  id: z.string(),
  category: z.string(),
  service: z.string(),
  /** The town of the job's address (shared/domain/town.ts); null when the address names none. */
  town: z.nullable(z.string()),
  description: z.string(),
  /** The worker's own rate, in cents: what they would earn per hour. */
  hourlyRate: z.number(),
  offerExpiresAt: z.string(),
  state: jobState,
  arriveBy: time,
  /** From the worker's last shared location to the job; null when either is unknown. */
  distanceKm: z.nullable(z.number()),
  /** Pros the customer asked for: more than 1 means this pro is one of a crew, each with a job of their own. */
  workerCount: z.number(),
  /** The hours the job's estimate expects of each pro; null when it has no estimate. */
  estimatedHours: z.nullable(z.number()),
});
export type JobOfferView = z.infer<typeof jobOfferView>;

export const workerArrivalClaimView = z.strictObject({
  claimedAt: z.string(),
  reason: z.enum(['no-job-position', 'no-fix', 'too-far'] as const satisfies readonly ArrivalClaimReason[]),
  /** Metres from the job of the nearest usable fix; null without one. */
  distanceM: z.nullable(z.number()),
  message: z.string(),
});
export type WorkerArrivalClaimView = z.infer<typeof workerArrivalClaimView>;

/**
 * A job held by a worker, or offered to them (GET /api/jobs/worker/{workerId}, GET /api/jobs/{id}).
 * The customer's name, phone, email, street and position are present only for the pro the job is
 * accepted by; an offer shows the town.
 */
export const workerJobView = z.strictObject({
  id: z.string(),
  category: z.string(),
  service: z.string(),
  customerName: z.optional(z.string()),
  customerPhone: z.optional(z.string()),
  /** Absent also when the customer gave none. */
  customerEmail: z.optional(z.string()),
  address: z.optional(z.string()),
  latitude: z.optional(z.nullable(z.number())),
  longitude: z.optional(z.nullable(z.number())),
  town: z.nullable(z.string()),
  description: z.string(),
  hourlyRate: z.number(),
  state: jobState,
  /** Present while the job is offered to this worker (GET /api/jobs/{id} of an offer). */
  offerExpiresAt: time,
  arriveBy: time,
  acceptedAt: time,
  enRouteAt: time,
  arrivedAt: time,
  startedAt: time,
  endedAt: time,
  createdAt: z.string(),
  /** The states the worker may move this job to next (server-enforced). */
  nextStates: z.array(jobState),
  /** Billable hours once completed (the invoice starts from them). */
  totalHours: z.nullable(z.number()),
  /** The customer's notes when they rejected the work and reopened the job; null otherwise. */
  clientNotes: z.nullable(z.string()),
  /** True once the customer approved the work and until the worker invoices it. */
  canInvoice: z.boolean(),
  invoiceId: z.nullable(z.string()),
  /**
   * The holder's Mark Arrived that no location proved, while the customer has not answered it:
   * why, and what the pro is told. Null otherwise.
   */
  arrivalClaim: z.nullable(workerArrivalClaimView),
  /** Pros the customer asked for: more than 1 means this pro is one of a crew, each with a job of their own. */
  /** The as-soon-as-possible fee this pro's invoice adds (cents, their part of a crew's), 0 for a scheduled job. */
  rushFee: z.number(),
  workerCount: z.number(),
});
export type WorkerJobView = z.infer<typeof workerJobView>;

/** A completed job for the earnings page (GET /api/jobs/completed/{workerId}). */
export const completedJobView = z.strictObject({
  id: z.string(),
  category: z.string(),
  service: z.string(),
  customerName: z.string(),
  address: z.string(),
  hourlyRate: z.number(),
  startedAt: time,
  endedAt: z.string(),
  /** Billable hours (shared/domain/earnings.ts), one decimal. */
  totalHours: z.number(),
  /** hours x rate, cents. */
  amount: z.number(),
  /** The worker's share after the one configured platform fee, cents. */
  workerShare: z.number(),
  feePercent: z.number(),
  state: jobState,
  /** True when the customer approved the work and no invoice exists yet. */
  canInvoice: z.boolean(),
  invoiceId: z.nullable(z.string()),
  paymentStatus: z.nullable(z.enum(paymentStatuses)),
  payoutStatus: z.nullable(z.enum(payoutStatuses)),
});
export type CompletedJobView = z.infer<typeof completedJobView>;

/** Where dispatch stands for a customer's request. */
export const dispatchStatuses = ['searching', 'assigned', 'no_worker_available', 'done'] as const;
export type DispatchStatus = (typeof dispatchStatuses)[number];

/**
 * The worker a customer sees once one has accepted. On the public by-id view of a request `name` is
 * their first name and `phone` is absent.
 */
export const assignedWorkerView = z.strictObject({
  id: z.string(),
  name: z.string(),
  phone: z.optional(z.string()),
  photoUrl: z.nullable(z.string()),
  /** Their average from reviews (one decimal), null while they have none. */
  rating: z.nullable(z.number()),
  reviewCount: z.number(),
});
export type AssignedWorkerView = z.infer<typeof assignedWorkerView>;

/** Which door a job came in by: /book, the home page's request form, or Hire Now. */
export const jobKinds = ['booking', 'request', 'hire'] as const;
export type JobKind = (typeof jobKinds)[number];

/** When each step of the timeline happened (ISO), null until it has. */
export const jobTimes = z.strictObject({
  acceptedAt: time,
  enRouteAt: time,
  arrivedAt: time,
  startedAt: time,
  endedAt: time,
  verifiedAt: time,
  paidAt: time,
  cancelledAt: time,
});
export type JobTimes = z.infer<typeof jobTimes>;

/**
 * One pro's place in a request for several (the lead's `crew`, in index order, the lead first):
 * their own job, pro, deadline, steps and hours.
 */
export const crewMemberView = z.strictObject({
  jobId: z.string(),
  /** 1 for the lead, then 2..workerCount. */
  index: z.number(),
  number: z.string(),
  jobState,
  dispatch: z.enum(dispatchStatuses),
  worker: z.nullable(assignedWorkerView),
  arriveBy: time,
  etaMinutes: z.nullable(z.number()),
  times: jobTimes,
  /** Billable hours once this pro completed. */
  totalHours: z.nullable(z.number()),
  /** This pro's latest shared position while they hold the job (null otherwise). */
  position: z.nullable(z.strictObject({ lat: z.number(), lng: z.number(), at: z.string() })),
  /** The pro said they arrived and no location proved it: answered on this member's own /track page. */
  arrivalClaim: z.nullable(z.strictObject({ claimedAt: z.string() })),
  invoiceId: z.nullable(z.string()),
});
export type CrewMemberView = z.infer<typeof crewMemberView>;

const serviceRequestShape = {
  /** The job's id: /track#id= takes it (a booking's own id works there too). */
  id: z.string(),
  kind: z.enum(jobKinds),
  /** What the screens show and /track takes with the phone number: the id's last 8 characters, upper case. */
  number: z.string(),
  category: z.string(),
  name: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  service: z.string(),
  location: z.string(),
  description: z.string(),
  status: z.enum(requestStatuses),
  jobState,
  dispatch: z.enum(dispatchStatuses),
  /** True once a worker lost the job for arriving late and it went back to dispatch. */
  reassigned: z.boolean(),
  worker: z.nullable(assignedWorkerView),
  /**
   * Travel minutes from the worker's last shared position to the job (shared/domain/geo.ts), while
   * accepted or on the way; null when either position is unknown. arriveBy is the promise.
   */
  etaMinutes: z.nullable(z.number()),
  arriveBy: time,
  clientLatitude: z.number(),
  clientLongitude: z.number(),
  gpsEnabled: z.boolean(),
  customerType: z.literal('individual'),
  /** Pros asked for (1-5). */
  workerCount: z.number(),
  /**
   * A request for more than one pro: every pro's job, the lead's first. Null for one pro. On a
   * member's own page (not the lead) it is null too, and `crewLeadId` names the request to go back to.
   */
  crew: z.nullable(z.array(crewMemberView)),
  /** Set on a crew member that is not the lead: the request (lead job) the customer verifies and pays through. */
  crewLeadId: z.nullable(z.string()),
  /** Pros being asked right now (offers outstanding), while the job is searching. */
  offersOutstanding: z.number(),
  /** True while no pro has accepted: the customer may cancel. */
  canCancel: z.boolean(),
  /** True when the search ended with nobody: "Try again" offers the same job afresh. */
  canRetry: z.boolean(),
  /**
   * After "no worker available": until when a pro of the trade coming on call nearby is offered
   * the job automatically (null otherwise).
   */
  reofferUntil: time,
  times: jobTimes,
  /**
   * The pro said they arrived and no location proved it: the customer is asked "Has your pro
   * arrived?" (POST /api/requests/{id}/arrival). Null when nothing waits for that answer.
   */
  arrivalClaim: z.nullable(z.strictObject({ claimedAt: z.string() })),
  /** The customer's rating of the completed job (1-5), or null before they review it. */
  rating: z.nullable(z.number()),
  /** The work_completion_verification step: asked once the worker completes. */
  verification: workVerificationView,
  invoice: z.nullable(invoiceSummary),
  /** The owner cancelled it and told the customer why (null otherwise). */
  cancelMessage: z.nullable(z.string()),
  /**
   * When the customer asked for the pro (null: as soon as possible). A scheduled job is offered to
   * pros from a day before this instant, or at once when that is sooner.
   */
  requestedTime: time,
  /**
   * While a scheduled job waits for its offers to open: when they open (a day before its start).
   * Null once they have (or for an as-soon-as-possible job), so nothing says a pro is being sought
   * before one is.
   */
  offersOpenAt: time,
  /** The price the server computed when the job was sent (null for jobs sent before estimates, or with no pro's rate to price at). */
  estimate: z.nullable(jobEstimateView),
  createdAt: z.string(),
};

/** A service request as its customer sees it (GET /api/requests, POST /api/requests, POST /api/hire). */
export const serviceRequestView = z.strictObject(serviceRequestShape);
export type ServiceRequestView = z.infer<typeof serviceRequestView>;

/** Who is reading a tracked request: what they are shown, and whether they may act on it. */
export const trackViewers = ['customer', 'owner', 'pro', 'link'] as const;
export type TrackViewer = (typeof trackViewers)[number];

/**
 * GET /api/track/{id}: any door's job by its id (or a booking's id). `viewer` is 'customer' when the
 * caller's cookie is the job's customer (who can act on it), 'owner' for the owner's session, 'pro'
 * for the pro who holds the job now, 'link' for anyone else holding the link (who can follow it but
 * not verify, pay, cancel or rate). The customer's name, email, phone, street, position and
 * description are present for all but 'link' (email only when given); 'link' gets the town, the
 * pro's first name without their phone, and no pro's position.
 */
export const trackedRequestView = z.strictObject({
  ...serviceRequestShape,
  name: z.optional(z.string()),
  email: z.optional(z.string()),
  phoneNumber: z.optional(z.string()),
  location: z.optional(z.string()),
  clientLatitude: z.optional(z.number()),
  clientLongitude: z.optional(z.number()),
  description: z.optional(z.string()),
  /** The town of the job's address (shared/domain/town.ts); null when the address names none. */
  town: z.nullable(z.string()),
  viewer: z.enum(trackViewers),
});
export type TrackedRequestView = z.infer<typeof trackedRequestView>;

/** POST /api/requests and POST /api/hire: the request made. */
export const createdRequest = z.strictObject({ success: z.literal(true), request: serviceRequestView });

/** POST /api/track/lookup's answer: the id to track. */
export const trackLookupResult = z.strictObject({ id: z.string() });
export type TrackLookupResult = z.infer<typeof trackLookupResult>;

/** GET /api/requests/{id}/payment: whether the job's invoice is paid, and what was paid. */
export const paymentConfirmationView = z.strictObject({
  jobId: z.string(),
  /** True only when the invoice is paid (and, when a session id was given, by that Checkout session). */
  paid: z.boolean(),
  invoiceId: z.nullable(z.string()),
  invoiceNumber: z.nullable(z.string()),
  service: z.string(),
  workerName: z.nullable(z.string()),
  /** Cents. */
  totalAmount: z.nullable(z.number()),
  platformFee: z.nullable(z.number()),
  workerShare: z.nullable(z.number()),
  feePercent: z.nullable(z.number()),
  paidAt: time,
  /** True once the customer rated the job. */
  rated: z.boolean(),
  /** True when it is paid and the customer gave an email address: their receipt is mailed there. */
  receiptEmailed: z.boolean(),
});
export type PaymentConfirmationView = z.infer<typeof paymentConfirmationView>;

/** A coarse distance band (shared/domain/distance-bands.ts). */
const distanceBand = z.strictObject({
  id: z.enum(distanceBandIds),
  /** Lower bound, in `unit` (0 for the first band). */
  from: z.number(),
  /** Upper bound, in `unit`; null for the last band ("over 50"). */
  to: z.nullable(z.number()),
  unit: z.enum(['mi', 'km']),
});

/** A worker listed for hiring (GET /api/worker-profiles). No email, phone or home address: they are not public. */
export const workerListingView = z.strictObject({
  id: z.string(),
  workerId: z.string(),
  fullName: z.string(),
  photoUrl: z.nullable(z.string()),
  bio: z.nullable(z.string()),
  yearsExperience: z.number(),
  /** Category names, at most 3 shown. */
  specialties: z.array(z.string()),
  serviceAreas: z.array(z.string()),
  hourlyRate: z.number(),
  isVerified: z.literal('true'),
  isAvailable: z.enum(['true', 'false']),
  workerType: z.enum(['contract', 'independent']),
  /** Average of reviews; null while the worker has none ("New"). */
  rating: z.nullable(z.number()),
  reviewCount: z.number(),
  /**
   * How far from the caller's saved service address, as a coarse band only; null without a saved
   * address, for a pro who shared no position, and for a pro on a job (their position is the job's
   * customer's alone). No figure or ETA: a precise one from any chosen point gives the pro away.
   */
  distanceBand: z.nullable(distanceBand),
});
export type WorkerListingView = z.infer<typeof workerListingView>;

/** An address suggestion of GET /api/geocode. */
export const addressSuggestion = z.strictObject({
  displayName: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  address: z.strictObject({
    houseNumber: z.optional(z.string()),
    road: z.optional(z.string()),
    neighbourhood: z.optional(z.string()),
    city: z.optional(z.string()),
    state: z.optional(z.string()),
    postcode: z.optional(z.string()),
  }),
});
export type AddressSuggestion = z.infer<typeof addressSuggestion>;

/** GET /api/geocode?q= and GET /api/geocode/reverse?lat=&lng=: `available` false when the geocoder could not be reached. */
export const geocodeResult = z.strictObject({
  suggestions: z.array(addressSuggestion),
  available: z.boolean(),
});
export type GeocodeResult = z.infer<typeof geocodeResult>;
