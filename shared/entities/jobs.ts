import type { ArrivalClaim, ArrivalEvidence } from '../domain/arrival';
import type { JobState } from '../domain/booking-status';
import type { JobEstimate } from '../domain/estimate';
import type { DispatchStatus } from '../schemas/job';
import { defineEntity, on, onShards } from './define';
import { shardOf } from './shards';

/**
 * Jobs and what is stored beside them: the number a customer tracks a job by, the worker's side of
 * an offer, and the latest location fix of the worker on the job.
 */
export type JobKind = 'booking' | 'request' | 'hire';

/**
 * A request for more than one pro is a crew: one job per pro, each dispatched, held, timed and
 * invoiced like any other. The first (index 1) is the lead: the one the customer lists, tracks,
 * verifies and pays through; the others point at it.
 */
export interface JobCrew {
  leadId: string;
  /** 1 for the lead, then 2..size. */
  index: number;
  size: number;
  /** Every job of the crew in index order, the lead first (one BatchGet reads them all). */
  jobIds: string[];
}

export interface JobItem {
  pk: string;
  sk: string;
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
  gsi3pk: string;
  gsi3sk: string;
  gsi4pk?: string;
  gsi4sk?: string;
  entity: 'job';
  id: string;
  kind: JobKind;
  bookingId: string | null;
  customerId: string;
  category: string;
  service: string;
  customerName: string;
  customerPhone: string;
  customerEmail: string | null;
  address: string;
  latitude: number | null;
  longitude: number | null;
  gpsEnabled: boolean;
  description: string;
  /** When the customer wants the pro (ISO instant); null = as soon as possible. */
  requestedTime: string | null;
  /** Pros the customer asked for (the spec's workerCount); absent on jobs stored before it means 1. */
  workerCount?: number;
  /** Set on every job of a request for more than one pro. */
  crew?: JobCrew;
  /** The price the server computed at creation (shared/domain/estimate.ts); null where none was computed. */
  estimate: JobEstimate | null;
  state: JobState;
  version: number;
  dispatch: DispatchStatus;
  /** Outstanding offers: worker id -> when the offer expires (ISO). */
  offers: Record<string, string>;
  /** Every worker offered this job so far (each at most once). */
  tried: string[];
  /** A hire: offered to this worker first, alone. */
  preferredWorkerId: string | null;
  acceptedBy: string | null;
  /** The worker's rate when they accepted, cents. */
  hourlyRate: number | null;
  acceptedAt: string | null;
  arriveBy: string | null;
  enRouteAt: string | null;
  arrivedAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  totalHours: number | null;
  reassignedCount: number;
  /** Set once, with the first offer and the first accept: the owner's funnel counts each job's first of each only (functions/owner/data/stats.ts). */
  firstOfferedAt?: string;
  firstAcceptedAt?: string;
  /**
   * The customer's review, on the job itself: written once (conditional on its absence) together
   * with the worker's running totals. A worker's reviews are their completed jobs (gsi2 DONE#).
   */
  rating?: number;
  reviewText?: string;
  reviewerName?: string;
  reviewedAt?: string;
  /** The customer's answer to "verify the completed work" (the last one, if they asked for rework). */
  verificationStatus?: 'approved' | 'rejected';
  verificationNotes?: string | null;
  verificationAt?: string;
  /** The customer's notes from the last rejection, shown to the worker while they rework it. */
  clientNotes?: string | null;
  /** Times the customer sent the finished work back; billable hours add up across rounds. */
  reworkCount?: number;
  /** Hours billed before the current round of rework. */
  priorHours?: number;
  /** Set once, together with the invoice. */
  invoiceId?: string;
  paidAt?: string;
  /** When the search last ended with nobody (the customer was told no worker is available). */
  noWorkerAt?: string;
  /** Times the search was started afresh (Try again, or a pro who came on call nearby). */
  reopenedCount?: number;
  cancelledAt?: string;
  /** The owner's cancellation: their message to the customer (shown on the request and tracking page). */
  cancelMessage?: string;
  cancelledBy?: 'customer' | 'owner';
  /**
   * Lower-case text the owner's job table filters on (DynamoDB's contains() is case-sensitive): the
   * customer's name, phone digits and email; the job's number, address and description.
   */
  searchCustomer?: string;
  searchJob?: string;
  /** When the current search began (created, started again, reassigned): "offered too long" counts from it. */
  searchingSince?: string;
  /** The last payment attempt failed (cleared when it is paid). */
  paymentFailedAt?: string;
  /** Why the job counts as arrived: a fix close to it, or the customer confirming the pro's claim. */
  arrivalEvidence?: ArrivalEvidence;
  /** The holder's Mark Arrived that no fix proved, until the customer answers it or the job is reassigned. */
  arrivalClaim?: ArrivalClaim;
  /**
   * A scheduled job's reminders: the start each was sent for, so a timer delivered twice sends once
   * and a reschedule (a new start) gets its own.
   */
  dayReminderSentFor?: string;
  hourReminderSentFor?: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * The partitions every job (and every open job) is spread over (shared/entities/shards.ts). At a
 * thousand bookings a minute each job is written about ten times at about 4 KB, so one list
 * partition would take about 680 WCU a second, past half a partition's 1,000; over 8, each takes
 * about 85, room for bursts several times that and an uneven hash. A page of either list reads one
 * page of each shard, so more shards would cost every page read.
 */
export const JOB_LIST_SHARDS = 8;

/** The states of a job the owner may still have to act on (a verified one too while its payment failed). */
const OPEN_STATES: readonly JobState[] = ['booked', 'offered', 'accepted', 'en_route', 'arrived', 'in_progress'];

/**
 * A job (a booking's, a service request's or a hire's). A service request and a hire ARE their job:
 * one item, so what the customer sees and what the worker moves cannot disagree.
 * - gsi1 CUSTOMER#<customer> / REQUEST#<createdAt>: the customer's requests, newest last (beside
 *   their bookings and invoices);
 * - gsi2, one of two at a time: WORKERJOBS#<worker> / ACTIVE#<acceptedAt> or DONE#<endedAt> (the
 *   jobs a worker holds and has finished), or UNFILLED#<category> / <since> (sparse: jobs whose
 *   search ended with nobody, by trade and when it ended, so a pro of that trade coming on call
 *   finds the recent ones nearby with one Query; a job leaves it when it is offered again,
 *   accepted or cancelled);
 * - gsi3 JOBS#<shard> / JOB#<createdAt>: every job, oldest first (the owner's jobs tab and analytics),
 *   over JOB_LIST_SHARDS partitions;
 * - gsi4 OPENJOBS#<shard> / <createdAt> (sparse, sharded alike): the jobs the owner may still have to act on, from
 *   creation until completed or cancelled, and again while a payment failed; the owner's "Needs
 *   attention" reads only these, however long the history grows.
 * Which of these a job is in follows from its own attributes (`membership`), so every write of
 * them files it again in the same write.
 */
export const jobEntity = defineEntity<JobItem>()({
  name: 'job',
  key: (id: string) => ({ pk: `JOB#${id}`, sk: 'JOB' }),
  indexes: {
    customerRequests: on('gsi1', (customerId: string, createdAt = '') => ({ gsi1pk: `CUSTOMER#${customerId}`, gsi1sk: `REQUEST#${createdAt}` })),
    workerJobs: on('gsi2', (workerId: string, group: 'ACTIVE' | 'DONE' | '' = '', at = '') => ({
      gsi2pk: `WORKERJOBS#${workerId}`,
      gsi2sk: group ? `${group}#${at}` : '',
    })),
    unfilled: on('gsi2', (category: string, since = '') => ({ gsi2pk: `UNFILLED#${category}`, gsi2sk: since })),
    all: onShards('gsi3', JOB_LIST_SHARDS, (shard: number, createdAt = '') => ({ gsi3pk: `JOBS#${shard}`, gsi3sk: `JOB#${createdAt}` })),
    // The sort key is createdAt itself, so a write that puts a job back among them copies it from the item.
    open: onShards('gsi4', JOB_LIST_SHARDS, (shard: number, createdAt = '') => ({ gsi4pk: `OPENJOBS#${shard}`, gsi4sk: createdAt })),
  },
  membership: {
    // Only the lead of a crew: the customer reaches the members through it.
    customerRequests: { uses: ['customerId', 'createdAt', 'crew', 'id'], when: (j) => !j.crew || j.crew.leadId === j.id, args: (j) => [j.customerId, j.createdAt] },
    // From the accept until cancelled or reassigned; done from its (last) completion. A round of
    // rework is held again from when the customer sent it back.
    workerJobs: {
      uses: ['acceptedBy', 'cancelledAt', 'endedAt', 'acceptedAt', 'verificationStatus', 'verificationAt'],
      when: (j) => j.acceptedBy !== null && j.acceptedBy !== undefined && j.cancelledAt === undefined,
      args: (j) =>
        j.endedAt
          ? [j.acceptedBy!, 'DONE', j.endedAt]
          : [j.acceptedBy!, 'ACTIVE', (j.verificationStatus === 'rejected' ? j.verificationAt : j.acceptedAt) ?? ''],
    },
    unfilled: { uses: ['dispatch', 'category', 'noWorkerAt'], when: (j) => j.dispatch === 'no_worker_available', args: (j) => [j.category, j.noWorkerAt ?? ''] },
    all: { uses: ['pk', 'createdAt'], args: (j) => [shardOf(j.pk, JOB_LIST_SHARDS), j.createdAt] },
    open: {
      uses: ['state', 'paymentFailedAt', 'createdAt', 'pk'],
      when: (j) => OPEN_STATES.includes(j.state) || (j.state === 'verified' && j.paymentFailedAt !== undefined),
      args: (j) => [shardOf(j.pk, JOB_LIST_SHARDS), j.createdAt],
    },
  },
});

/**
 * The number a screen shows (a job id's last 8 characters, upper case) and the digits of the phone
 * it was made with: /track finds a job by the two together. One item per job; a Query on the
 * number and phone finds it even if two ids ever share their last 8 characters.
 */
export interface TrackingNumberItem {
  pk: string;
  sk: string;
  entity: 'tracking-number';
  jobId: string;
}

export const trackingNumberEntity = defineEntity<TrackingNumberItem>()({
  name: 'tracking-number',
  key: (number: string, phoneDigits = '', jobId = '') => ({ pk: `TRACKNO#${number.toUpperCase()}`, sk: `PHONE#${phoneDigits}#${jobId}` }),
});

/** An offer made to a worker, beside their profile; the job item stays the authority on it. Expires (TTL). */
export interface WorkerOfferItem {
  pk: string;
  sk: string;
  entity: 'offer';
  jobId: string;
  workerId: string;
  /** When the offer lapses (ISO); the job's `offers` holds the same. */
  offerExpiresAt: string;
  expiresAt: number;
}

export const workerOfferEntity = defineEntity<WorkerOfferItem>()({
  name: 'offer',
  key: (workerId: string, jobId = '') => ({ pk: `WORKER#${workerId}`, sk: `OFFER#${jobId}` }),
});

/** The latest location fix of the worker on a job (one item: only the latest is kept). */
export interface JobLocationItem {
  pk: string;
  sk: string;
  entity: 'job-location';
  jobId: string;
  workerId: string;
  lat: number;
  lng: number;
  accuracy: number | null;
  at: string;
}

export const jobLocationEntity = defineEntity<JobLocationItem>()({
  name: 'job-location',
  key: (jobId: string) => ({ pk: `JOB#${jobId}`, sk: 'LOCATION' }),
});

/** Who made a step of a job's history: a person by role and id, or the system (a timer, a webhook). */
export interface JobEventActor {
  role: 'customer' | 'worker' | 'owner' | 'system';
  id: string | null;
  /** The name shown in the owner's timeline, as it was when the step happened. */
  name: string | null;
}

/**
 * One step of a job's history, beside the job in its partition (sorted by time): what the owner's
 * timeline shows. Written with the change it records (in the same write where the change is one),
 * never updated afterwards.
 */
export interface JobEventItem {
  pk: string;
  sk: string;
  entity: 'job-event';
  jobId: string;
  id: string;
  /** What happened, e.g. 'offered', 'offer_expired', 'accepted', 'strike', 'paid' (shared/domain/job-history.ts). */
  type: string;
  at: string;
  actor: JobEventActor;
  /** The worker the step concerns (offered to, accepted by, struck), if any. */
  workerId: string | null;
  /** A short sentence for the owner, e.g. the strike's reason or the cancellation's message. */
  detail: string | null;
}

export const jobEventEntity = defineEntity<JobEventItem>()({
  name: 'job-event',
  key: (jobId: string, at = '', id = '') => ({ pk: `JOB#${jobId}`, sk: at ? `EVENT#${at}#${id}` : 'EVENT#' }),
});
