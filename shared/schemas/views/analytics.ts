import * as z from 'zod/mini';

/**
 * The owner's analytics: figures read from counters kept as things change (never by reading every
 * job), for a range of days grouped by day, week or month. Money in cents. A rate or a median with
 * nothing to measure is null, never a made-up 0.
 */

/** The longest range one call reads: one stats item a day, so this bounds the read. */
export const MAX_ANALYTICS_DAYS = 400;
/** Without a range, the last 30 days (today included). */
export const DEFAULT_ANALYTICS_DAYS = 30;
/** The most rows one CSV export holds (read page by page); a range with more is refused, asking for a shorter one. */
export const MAX_EXPORT_ROWS = 5000;

export const analyticsGroupings = ['day', 'week', 'month'] as const;
export type AnalyticsGrouping = (typeof analyticsGroupings)[number];

export const funnelStepNames = ['sent', 'offered', 'accepted', 'completed', 'verified', 'paid'] as const;

const statusCounts = z.strictObject({ pending: z.number(), approved: z.number(), rejected: z.number() });

const money = {
  /** What customers paid for the work (invoice subtotals: platform fee + pros' shares), without the card fees passed to the processor. */
  grossCents: z.number(),
  platformFeeCents: z.number(),
  /** The pros' shares of those payments (transferred at once or held). */
  proPayoutCents: z.number(),
  /** Of those shares, held until the pro sets up payouts. */
  heldCents: z.number(),
  /** Held shares sent to pros in the period (whenever they were paid). */
  releasedCents: z.number(),
  payments: z.number(),
};

export const moneyPeriod = z.strictObject({
  /** yyyy-mm-dd (day), the Monday of the ISO week (week), or yyyy-mm (month). */
  period: z.string(),
  ...money,
});
export type MoneyPeriod = z.infer<typeof moneyPeriod>;

export const noProShare = z.strictObject({
  category: z.string(),
  /** A 4-character geohash cell (about 40 × 20 km), or "none" for jobs without a location. */
  area: z.string(),
  sent: z.number(),
  noPro: z.number(),
  /** noPro ÷ sent, 0..1 (null when none were sent in the range but some found nobody, e.g. sent before it). */
  share: z.nullable(z.number()),
});

export const analytics = z.strictObject({
  range: z.strictObject({ from: z.string(), to: z.string(), by: z.enum(analyticsGroupings) }),
  applications: statusCounts,
  companyApplications: statusCounts,
  workers: z.strictObject({ active: z.number(), pendingReview: z.number(), suspended: z.number(), terminated: z.number() }),
  /** Every job ever sent. */
  jobs: z.strictObject({ total: z.number() }),
  averageRating: z.nullable(z.number()),
  reviewCount: z.number(),
  /** Workers with an active probation (rated 2 stars or fewer 3 times in a row). */
  workersOnProbation: z.number(),
  money: z.strictObject({ periods: z.array(moneyPeriod), totals: z.strictObject(money), heldNowCents: z.number() }),
  /** Jobs reaching each step in the range (each job counted once per step, on the day it got there). */
  funnel: z.strictObject({
    sent: z.number(),
    offered: z.number(),
    accepted: z.number(),
    completed: z.number(),
    verified: z.number(),
    paid: z.number(),
  }),
  /** Minutes from sent to first accept: the median of the range's accepts, to the whole minute. */
  timeToAccept: z.strictObject({ medianMinutes: z.nullable(z.number()), accepted: z.number() }),
  arrivals: z.strictObject({ onTime: z.number(), late: z.number(), onTimeRate: z.nullable(z.number()) }),
  /** By trade and area, most jobs with no pro first (at most 50 rows). */
  noPro: z.array(noProShare),
});
export type Analytics = z.infer<typeof analytics>;

export const proFigures = z.strictObject({
  id: z.string(),
  fullName: z.string(),
  status: z.string(),
  averageRating: z.nullable(z.number()),
  reviewCount: z.number(),
  earnedCents: z.number(),
  paidJobs: z.number(),
  strikes: z.number(),
});
export type ProFigures = z.infer<typeof proFigures>;

/** A CSV export's body: text, answered as text/csv with a file name. */
export const csvText = z.string();
