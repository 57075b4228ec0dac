import type { WorkerStatus, WorkerType } from '../schemas/worker';
import type { StrikeEvidence, StrikeReason, StrikeStatus } from '../schemas/strikes';
import { defineEntity, on, onShards } from './define';
import { shardOf } from './shards';

/**
 * A worker's items, all in their partition WORKER#<id> but the dispatch index entries: the profile,
 * the login apart from it, probation records; plus the reverse entry of their Stripe account.
 */
/** A worker's profile row (WORKER#id / PROFILE). Rates in cents; SSN digits never live here. */
export interface WorkerItem {
  pk: string;
  sk: string;
  gsi2pk: string;
  gsi2sk: string;
  entity: 'worker';
  id: string;
  applicationId: string;
  fullName: string;
  email: string;
  phone: string;
  address: string;
  status: WorkerStatus;
  strikes: number;
  isVerified: boolean;
  isAvailable: boolean;
  isClockedIn: boolean;
  lastClockIn: string | null;
  yearsExp: number;
  categories: string[];
  hourlyRate: number;
  workerType: WorkerType | null;
  profilePhotoKey: string | null;
  hasAccount: boolean;
  /** The job the worker holds now; set and cleared with the job, so a worker holds at most one. */
  activeJobId?: string;
  /** Last shared position (POST /api/workers/location), for dispatch distances. */
  location?: WorkerLocation;
  /** Running review totals (average = ratingSum / ratingCount) and the current streak of low ratings. */
  ratingSum?: number;
  ratingCount?: number;
  lowRatingStreak?: number;
  /** When the worker's active probation began (a streak of low ratings); one at a time, the owner ends it. */
  probationSince?: string;
  /** The pro's shares of paid invoices, cents, and how many: moved in the payment's own write (functions/owner/data/stats.ts). */
  earnedCents?: number;
  paidJobs?: number;
  /** Stripe Connect (Express) account for payouts, and whether Stripe says payouts are enabled. */
  stripeAccountId?: string;
  payoutsEnabled?: boolean;
  /** The dispatch index entries written for this worker ("pk|sk"), so the next sync can remove them. */
  dispatchEntries?: string[];
  /**
   * Required document categories whose document expired while no other valid one was approved
   * (a string set): no offers while it holds any. Approving a valid one lifts its category.
   */
  offersPausedFor?: Set<string>;
  /** When the owner terminated the worker. */
  terminatedAt?: string;
  /**
   * Why the account was last suspended, reinstated or terminated (the owner's words, or the strike
   * limit's), when, and by whom (the owner's name, or "system"): the pro is shown the reason.
   */
  statusReason?: string;
  statusChangedAt?: string;
  statusChangedBy?: string;
  createdAt: string;
  updatedAt: string;
}

export interface WorkerLocation {
  lat: number;
  lng: number;
  accuracy: number | null;
  geohash: string;
  at: string;
}

/** The worker's login (WORKER#id / ACCOUNT), apart from the profile so profile reads never carry the hash. */
export interface WorkerAccountItem {
  pk: string;
  sk: string;
  entity: 'worker-account';
  workerId: string;
  passwordHash: string;
  createdAt: string;
}

/**
 * The partitions every worker's profile is spread over (shared/entities/shards.ts). A profile is
 * written a few times per job (the job held and let go, a review, a payment) and whenever the pro
 * shares a position or clocks in, at about 2 KB: at a thousand bookings a minute, some 200 WCU a
 * second before positions, too close to half a partition's 1,000 for one; over 4, about 50 each.
 */
export const WORKER_LIST_SHARDS = 4;

/**
 * The worker's profile. The password hash lives apart (ACCOUNT), so profile reads never carry it.
 * gsi2 WORKERS#<shard> / WORKER#<createdAt>: every worker, newest last (the owner's workers tab),
 * over WORKER_LIST_SHARDS partitions.
 */
export const workerEntity = defineEntity<WorkerItem>()({
  name: 'worker',
  key: (id: string) => ({ pk: `WORKER#${id}`, sk: 'PROFILE' }),
  indexes: {
    all: onShards('gsi2', WORKER_LIST_SHARDS, (shard: number, createdAt = '') => ({ gsi2pk: `WORKERS#${shard}`, gsi2sk: `WORKER#${createdAt}` })),
  },
  membership: {
    all: { uses: ['pk', 'createdAt'], args: (w) => [shardOf(w.pk, WORKER_LIST_SHARDS), w.createdAt] },
  },
});

export const workerAccountEntity = defineEntity<WorkerAccountItem>()({
  name: 'worker-account',
  key: (id: string) => ({ pk: `WORKER#${id}`, sk: 'ACCOUNT' }),
});

/** The worker_probations record of the stored schema, beside the worker's profile. */
export interface WorkerProbationItem {
  pk: string;
  sk: string;
  entity: 'worker-probation';
  workerId: string;
  reason: string;
  startDate: string;
  endDate: string | null;
  status: 'active' | 'ended';
  /** The job whose review completed the streak. */
  reviewTrigger: string;
}

export const workerProbationEntity = defineEntity<WorkerProbationItem>()({
  name: 'worker-probation',
  key: (workerId: string, startDate = '') => ({ pk: `WORKER#${workerId}`, sk: `PROBATION#${startDate}` }),
});

/**
 * An entry of the sparse dispatch index: one per available, clocked-in worker and category. Entries
 * are a hint, re-checked against the profile (functions/jobs/data/dispatch-index.ts).
 */
export interface DispatchEntryItem {
  pk: string;
  sk: string;
  entity: 'dispatch-entry';
  workerId: string;
  lat: number | null;
  lng: number | null;
}

/**
 * In the partition of its coarse geohash cell, sorted by its fine geohash, so the workers near a
 * point are a few Queries with begins_with on the sort key, whatever the number of workers.
 */
export const dispatchCellEntity = defineEntity<DispatchEntryItem>()({
  name: 'dispatch-entry',
  key: (category: string, cell: string, geohash = '', workerId = '') => ({
    pk: `DISPATCH#${category}#${cell}`,
    sk: geohash ? `${geohash}#${workerId}` : '',
  }),
});

/** The same workers by category alone, for jobs whose location is unknown and workers who shared none. */
export const dispatchCategoryEntity = defineEntity<DispatchEntryItem>()({
  name: 'dispatch-entry',
  key: (category: string, workerId = '') => ({ pk: `DISPATCH#${category}`, sk: `WORKER#${workerId}` }),
});

/** Which worker a connected (Stripe) account belongs to, for account.updated webhooks. */
export interface StripeAccountItem {
  pk: string;
  sk: string;
  entity: 'stripe-account';
  accountId: string;
  workerId: string;
  createdAt: string;
}

export const stripeAccountEntity = defineEntity<StripeAccountItem>()({
  name: 'stripe-account',
  key: (accountId: string) => ({ pk: `STRIPE_ACCOUNT#${accountId}`, sk: 'ACCOUNT' }),
});

/**
 * One strike of the worker_penalties record, beside the worker's profile
 * (WORKER#<worker> / PENALTY#<at>#<id>, so a worker's record is one Query, oldest first), with the
 * evidence the timer saw, the pro's appeal and the owner's decision.
 * - gsi1 PENALTY#<id> / PENALTY: the strike by its id alone (the appeal and decision routes name only it);
 * - gsi3 STRIKE_APPEALS / <appealedAt>#<id>: sparse, only while an appeal waits for the owner's
 *   decision (set by the appeal, removed by the decision), oldest first.
 */
export interface WorkerPenaltyItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi3pk?: string;
  gsi3sk?: string;
  entity: 'worker-penalty';
  id: string;
  workerId: string;
  /** The worker's name when the strike was given, for the owner's appeals list. */
  workerName: string;
  jobId: string;
  at: string;
  reason: StrikeReason;
  evidence: StrikeEvidence;
  status: StrikeStatus;
  appealNote: string | null;
  appealedAt: string | null;
  decisionNote: string | null;
  decidedAt: string | null;
  decidedBy: string | null;
}

export const workerPenaltyEntity = defineEntity<WorkerPenaltyItem>()({
  name: 'worker-penalty',
  key: (workerId: string, at = '', id = '') => ({ pk: `WORKER#${workerId}`, sk: at ? `PENALTY#${at}#${id}` : 'PENALTY#' }),
  indexes: {
    byId: on('gsi1', (id: string) => ({ gsi1pk: `PENALTY#${id}`, gsi1sk: 'PENALTY' })),
    openAppeals: on('gsi3', (appealedAt = '', id = '') => ({ gsi3pk: 'STRIKE_APPEALS', gsi3sk: appealedAt ? `${appealedAt}#${id}` : '' })),
  },
  membership: {
    byId: { uses: ['id'], args: (p) => [p.id] },
    openAppeals: { uses: ['status', 'appealedAt', 'id'], when: (p) => p.status === 'appealed', args: (p) => [p.appealedAt ?? '', p.id] },
  },
});
