import { defineEntity } from './define';

/**
 * The owner's figures, kept as counters so the analytics screen reads a few small items instead of
 * every job. A change that counts writes a TALLY item of its own (below) in the same write as the
 * change, and the table's stream adds tallies into these items (functions/owner/count-stats.ts), so no
 * user's call ever writes an item that every booking touches:
 * - STATS / DAY#<yyyy-mm-dd> (UTC): what happened that day: funnel milestones, money, arrivals,
 *   time-to-accept minute buckets, jobs sent and jobs left with no pro by trade and area;
 * - STATS / ALL: current figures that are not about a day: applications and workers by status,
 *   reviews, payouts held now, every job ever sent.
 * Counter attribute names are the `counter.*` names below; a counter a day never moved is absent (0).
 */
export interface StatsItem {
  pk: string;
  sk: string;
  entity: 'stats';
  /** The day (yyyy-mm-dd) of a DAY item; absent on ALL. */
  day?: string;
  [counter: string]: string | number | undefined;
}

export const statsEntity = defineEntity<StatsItem>()({
  name: 'stats',
  key: (period: 'ALL' | `DAY#${string}` | 'DAY#' = 'ALL') => ({ pk: 'STATS', sk: period }),
});

/** A stats item's sort key: `ALL` or `DAY#<yyyy-mm-dd>`. */
export type StatsPeriod = 'ALL' | `DAY#${string}`;

/**
 * What one change adds to the figures, waiting to be counted: written in the change's own
 * transaction (so it exists exactly when the change happened), under a random key of its own (so
 * concurrent changes never meet on it), and deleted by the stream consumer in the same write that
 * adds it to the stats items (so a record delivered twice counts once).
 */
export interface TallyItem {
  pk: string;
  sk: string;
  entity: 'tally';
  /** By stats item (`ALL`, `DAY#<day>`): counter name → amount to add. */
  counts: Partial<Record<StatsPeriod, Record<string, number>>>;
}

export const tallyEntity = defineEntity<TallyItem>()({
  name: 'tally',
  key: (id: string) => ({ pk: `TALLY#${id}`, sk: 'TALLY' }),
});

/** A job's area in the figures: its 4-character geohash cell (about 40 × 20 km, the dispatch partition), or `none` without a location. */
export const NO_AREA = 'none';

/** Time to accept is counted in whole-minute buckets up to this; slower accepts share the last bucket. */
export const ACCEPT_MINUTES_CAP = 240;

/**
 * Counter names, one place, so the writers and the reader cannot disagree. `:` separates the parts
 * of a dimensioned counter (trade and area slugs never contain one).
 */
export const counter = {
  funnel: (step: FunnelStep) => `funnel:${step}`,
  sentIn: (category: string, area: string) => `sent:${category}:${area}`,
  noProIn: (category: string, area: string) => `nopro:${category}:${area}`,
  acceptMinutes: (minutes: number) => `tta:${Math.min(Math.max(0, Math.floor(minutes)), ACCEPT_MINUTES_CAP)}`,
  arrivedOnTime: 'arrival:onTime',
  arrivedLate: 'arrival:late',
  grossCents: 'money:gross',
  feeCents: 'money:fee',
  payoutCents: 'money:payout',
  heldCents: 'money:held',
  releasedCents: 'money:released',
  payments: 'money:payments',
  /** ALL only. */
  heldNowCents: 'money:heldNow',
  jobsTotal: 'jobs:total',
  application: (kind: 'worker' | 'company', status: string) => `applications:${kind}:${status}`,
  workers: (status: string) => `workers:${status}`,
  workersAvailable: 'workers:available',
  workersOnProbation: 'workers:probation',
  reviewSum: 'reviews:sum',
  reviewCount: 'reviews:count',
} as const;

export const funnelSteps = ['sent', 'offered', 'accepted', 'completed', 'verified', 'paid'] as const;
export type FunnelStep = (typeof funnelSteps)[number];
