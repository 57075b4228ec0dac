import * as z from 'zod/mini';
import type { ArrivalClaimReason } from '../domain/arrival';
import type { JobState } from '../domain/booking-status';
import type { DistanceBand } from '../domain/distance-bands';
import { strictBody } from '../validation';
import { email, notCoordinates, phone, text } from './fields';
import type { InvoiceSummary, WorkVerificationView } from './invoice';
import type { PaymentStatus, PayoutStatus } from '../domain/invoice';
import { requestServices, type RequestStatus } from './request';

/**
 * The job calls of the worker app (spec "Jobs") and the customer's hire, with the views they answer.
 * Money is integer cents; times are ISO strings; a worker id in a body is optional and, when sent,
 * must be the token's worker (DESIGN.md section 7).
 */
const workerId = z.optional(z.string({ error: 'workerId must be text' }).check(z.maxLength(64, 'workerId is too long')));

/** POST /api/jobs/accept/{jobId}, /decline/{jobId}, /{id}/complete. */
export const jobActionSchema = strictBody({ workerId });

/** The steps a worker sets with POST /api/jobs/{id}/state; completing has its own call. */
export const workerSettableStates = ['en_route', 'arrived', 'in_progress'] as const;
/** The device's fix sent with Mark Arrived (shared/domain/arrival.ts decides whether it proves arrival). */
const arrivalPosition = z.strictObject(
  {
    lat: z.number({ error: 'position.lat must be a number' }).check(z.gte(-90, 'position.lat must be between -90 and 90'), z.lte(90, 'position.lat must be between -90 and 90')),
    lng: z.number({ error: 'position.lng must be a number' }).check(z.gte(-180, 'position.lng must be between -180 and 180'), z.lte(180, 'position.lng must be between -180 and 180')),
    accuracy: z.number({ error: 'position.accuracy must be a number of metres' }).check(
      z.gte(0, 'position.accuracy cannot be negative'),
      z.lte(100_000, 'position.accuracy must be at most 100000 metres'),
    ),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field in position: ${issue.keys.join(', ')}` : 'position must be { lat, lng, accuracy }') },
);
export const jobStateSchema = strictBody({
  state: z.enum(workerSettableStates, { error: 'state must be en_route, arrived or in_progress' }),
  workerId,
  position: z.optional(arrivalPosition),
});

/** POST /api/requests/{id}/arrival: the customer's answer to "Has your pro arrived?". */
export const arrivalAnswerSchema = strictBody({
  arrived: z.boolean({ error: 'arrived must be true or false' }),
});

const latitude = z.number({ error: 'Latitude must be a number' }).check(
  z.gte(-90, 'Latitude must be between -90 and 90'),
  z.lte(90, 'Latitude must be between -90 and 90'),
);
const longitude = z.number({ error: 'Longitude must be a number' }).check(
  z.gte(-180, 'Longitude must be between -180 and 180'),
  z.lte(180, 'Longitude must be between -180 and 180'),
);

/** POST /api/workers/location: where dispatch measures a clocked-in worker's distance from. */
export const workerLocationSchema = strictBody({
  latitude,
  longitude,
  // No fix is vaguer than half the Earth's circumference.
  accuracy: z.optional(
    z.number({ error: 'Accuracy must be a number of metres' }).check(
      z.gte(0, 'Accuracy cannot be negative'),
      z.lte(20_000_000, 'Accuracy must be at most 20,000 km'),
    ),
  ),
});

/** POST /api/hire: the client dashboard's Hire Now, offered to that worker first. */
export const hireSchema = strictBody({
  workerId: text('Choose a worker to hire', z.minLength(1, 'Choose a worker to hire'), z.maxLength(64, 'workerId is too long')),
  name: text('Name is required', z.minLength(1, 'Name is required'), z.maxLength(100, 'Name must be at most 100 characters')),
  email: email('Please enter a valid email address'),
  phoneNumber: phone('Please enter a valid phone number'),
  service: z.enum(requestServices, { error: 'Please choose a service' }),
  location: text('Location is required', z.minLength(1, 'Location is required'), z.maxLength(200, 'Location must be at most 200 characters'), notCoordinates()),
  description: text(
    'Please describe the problem in at least 10 characters',
    z.minLength(10, 'Please describe the problem in at least 10 characters'),
    z.maxLength(2000, 'Description must be at most 2000 characters'),
  ),
  clientLatitude: z.optional(latitude),
  clientLongitude: z.optional(longitude),
  gpsEnabled: z.optional(z.boolean({ error: 'gpsEnabled must be true or false' })),
});
export type HireInput = z.infer<typeof hireSchema>;

/** An offer as the worker sees it (GET /api/jobs/offers/{workerId}). No customer phone before accepting. */
export interface JobOfferView {
  id: string;
  category: string;
  service: string;
  customerName: string;
  address: string;
  description: string;
  /** The worker's own rate, in cents: what they would earn per hour. */
  hourlyRate: number;
  offerExpiresAt: string;
  state: JobState;
  arriveBy: string | null;
  /** From the worker's last shared location to the job; null when either is unknown. */
  distanceKm: number | null;
}

/** A job held by a worker (GET /api/jobs/worker/{workerId}, GET /api/jobs/{id}). */
export interface WorkerJobView {
  id: string;
  category: string;
  service: string;
  customerName: string;
  customerPhone: string;
  customerEmail: string | null;
  address: string;
  latitude: number | null;
  longitude: number | null;
  description: string;
  hourlyRate: number;
  state: JobState;
  /** Present while the job is offered to this worker (GET /api/jobs/{id} of an offer). */
  offerExpiresAt: string | null;
  arriveBy: string | null;
  acceptedAt: string | null;
  enRouteAt: string | null;
  arrivedAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  createdAt: string;
  /** The states the worker may move this job to next (server-enforced). */
  nextStates: JobState[];
  /** Billable hours once completed (the invoice starts from them). */
  totalHours: number | null;
  /** The customer's notes when they rejected the work and reopened the job; null otherwise. */
  clientNotes: string | null;
  /** True once the customer approved the work and until the worker invoices it. */
  canInvoice: boolean;
  invoiceId: string | null;
  /**
   * The holder's Mark Arrived that no location proved, while the customer has not answered it:
   * why, and what the pro is told. Null otherwise.
   */
  arrivalClaim: WorkerArrivalClaimView | null;
}

export interface WorkerArrivalClaimView {
  claimedAt: string;
  reason: ArrivalClaimReason;
  /** Metres from the job of the nearest usable fix; null without one. */
  distanceM: number | null;
  message: string;
}

/** A completed job for the earnings page (GET /api/jobs/completed/{workerId}). */
export interface CompletedJobView {
  id: string;
  category: string;
  service: string;
  customerName: string;
  address: string;
  hourlyRate: number;
  startedAt: string | null;
  endedAt: string;
  /** Billable hours (shared/domain/earnings.ts), one decimal. */
  totalHours: number;
  /** hours x rate, cents. */
  amount: number;
  /** The worker's share after the one configured platform fee, cents. */
  workerShare: number;
  feePercent: number;
  state: JobState;
  /** True when the customer approved the work and no invoice exists yet. */
  canInvoice: boolean;
  invoiceId: string | null;
  paymentStatus: PaymentStatus | null;
  payoutStatus: PayoutStatus | null;
}

/** Where dispatch stands for a customer's request. */
export type DispatchStatus = 'searching' | 'assigned' | 'no_worker_available' | 'done';

/** The worker a customer sees once one has accepted. */
export interface AssignedWorkerView {
  id: string;
  name: string;
  phone: string;
  photoUrl: string | null;
  /** Their average from reviews (one decimal), null while they have none. */
  rating: number | null;
  reviewCount: number;
}

/** Which door a job came in by: /book, the home page's request form, or Hire Now. */
export type JobKind = 'booking' | 'request' | 'hire';

/** When each step of the timeline happened (ISO), null until it has. */
export interface JobTimes {
  acceptedAt: string | null;
  enRouteAt: string | null;
  arrivedAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  verifiedAt: string | null;
  paidAt: string | null;
  cancelledAt: string | null;
}

/** A service request as its customer sees it (GET /api/requests, POST /api/requests, POST /api/hire). */
export interface ServiceRequestView {
  /** The job's id: /track?id= takes it (a booking's own id works there too). */
  id: string;
  kind: JobKind;
  /** What the screens show and /track takes with the phone number: the id's last 8 characters, upper case. */
  number: string;
  category: string;
  name: string;
  email: string;
  phoneNumber: string;
  service: string;
  location: string;
  description: string;
  status: RequestStatus;
  jobState: JobState;
  dispatch: DispatchStatus;
  /** True once a worker lost the job for arriving late and it went back to dispatch. */
  reassigned: boolean;
  worker: AssignedWorkerView | null;
  /**
   * Travel minutes from the worker's last shared position to the job (shared/domain/geo.ts), while
   * accepted or on the way; null when either position is unknown. arriveBy is the promise.
   */
  etaMinutes: number | null;
  arriveBy: string | null;
  clientLatitude: number;
  clientLongitude: number;
  gpsEnabled: boolean;
  customerType: 'individual';
  workerCount: 1;
  /** Pros being asked right now (offers outstanding), while the job is searching. */
  offersOutstanding: number;
  /** True while no pro has accepted: the customer may cancel. */
  canCancel: boolean;
  /** True when the search ended with nobody: "Try again" offers the same job afresh. */
  canRetry: boolean;
  /**
   * After "no worker available": until when a pro of the trade coming on call nearby is offered
   * the job automatically (null otherwise).
   */
  reofferUntil: string | null;
  times: JobTimes;
  /**
   * The pro said they arrived and no location proved it: the customer is asked "Has your pro
   * arrived?" (POST /api/requests/{id}/arrival). Null when nothing waits for that answer.
   */
  arrivalClaim: { claimedAt: string } | null;
  /** The customer's rating of the completed job (1-5), or null before they review it. */
  rating: number | null;
  /** The work_completion_verification step: asked once the worker completes. */
  verification: WorkVerificationView;
  invoice: InvoiceSummary | null;
  createdAt: string;
}

/**
 * GET /api/track/{id}: any door's job by its id (or a booking's id). `viewer` is 'customer' when the
 * caller's cookie is the job's customer (who can act on it), 'link' for anyone else holding the link
 * (who can follow it but not verify, pay, cancel or rate).
 */
export interface TrackedRequestView extends ServiceRequestView {
  viewer: 'customer' | 'link';
}

/** POST /api/track/lookup's answer: the id to track. */
export interface TrackLookupResult {
  id: string;
}

/** GET /api/requests/{id}/payment: whether the job's invoice is paid, and what was paid. */
export interface PaymentConfirmationView {
  jobId: string;
  /** True only when the invoice is paid (and, when a session id was given, by that Checkout session). */
  paid: boolean;
  invoiceId: string | null;
  invoiceNumber: string | null;
  service: string;
  workerName: string | null;
  /** Cents. */
  totalAmount: number | null;
  platformFee: number | null;
  workerShare: number | null;
  feePercent: number | null;
  paidAt: string | null;
  /** True once the customer rated the job. */
  rated: boolean;
}

/** A worker listed for hiring (GET /api/worker-profiles). No email, phone or home address: they are not public. */
export interface WorkerListingView {
  id: string;
  workerId: string;
  fullName: string;
  photoUrl: string | null;
  bio: string | null;
  yearsExperience: number;
  /** Category names, at most 3 shown. */
  specialties: string[];
  serviceAreas: string[];
  hourlyRate: number;
  isVerified: 'true';
  isAvailable: 'true' | 'false';
  workerType: 'contract' | 'independent';
  /** Average of reviews; null while the worker has none ("New"). */
  rating: number | null;
  reviewCount: number;
  /**
   * How far from the caller's saved service address, as a coarse band only; null without a saved
   * address, for a pro who shared no position, and for a pro on a job (their position is the job's
   * customer's alone). No figure or ETA: a precise one from any chosen point gives the pro away.
   */
  distanceBand: DistanceBand | null;
}

/** An address suggestion of GET /api/geocode (spec section 3). */
export interface AddressSuggestion {
  displayName: string;
  latitude: number;
  longitude: number;
  address: {
    houseNumber?: string;
    road?: string;
    neighbourhood?: string;
    city?: string;
    state?: string;
    postcode?: string;
  };
}

/** GET /api/geocode?q= and GET /api/geocode/reverse?lat=&lng=: `available` false when the geocoder could not be reached. */
export interface GeocodeResult {
  suggestions: AddressSuggestion[];
  available: boolean;
}
