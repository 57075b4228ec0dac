import { counter, funnelSteps, type StatsItem } from '../../shared/entities';
import { DEFAULT_ANALYTICS_DAYS, MAX_ANALYTICS_DAYS, type AnalyticsGrouping, type MoneyPeriod } from '../../shared/schemas/admin';
import type { Analytics } from '../../shared/schemas/admin';
import { averageRating } from '../../shared/schemas/review-rules';
import { BadRequestError } from '../common/errors';

/**
 * The owner's analytics from the stats items (functions/owner/data/stats.ts): the overall item and
 * one item per day of the range. Pure: the figures are sums of counters, so the handler reads at
 * most one item per day of the range, however many jobs there are.
 */

const DAY_MS = 86_400_000;
const dayString = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

export interface DayRange {
  from: string;
  to: string;
}

/**
 * The range asked for, or the last DEFAULT_ANALYTICS_DAYS days to `today`. A range the wrong way
 * round or longer than MAX_ANALYTICS_DAYS is refused with what to change.
 */
export function rangeOf(query: { from?: string; to?: string }, today: string, maxDays = MAX_ANALYTICS_DAYS): DayRange {
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? dayString(dayMs(to) - (DEFAULT_ANALYTICS_DAYS - 1) * DAY_MS);
  if (from > to) throw new BadRequestError('from must be on or before to.');
  const days = (dayMs(to) - dayMs(from)) / DAY_MS + 1;
  if (days > maxDays) throw new BadRequestError(`Choose a range of at most ${maxDays} days (this one has ${days}).`);
  return { from, to };
}

/** The period a day falls in: the day, the Monday of its ISO week, or its month. */
export function periodOf(day: string, by: AnalyticsGrouping): string {
  if (by === 'day') return day;
  if (by === 'month') return day.slice(0, 7);
  const ms = dayMs(day);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return dayString(ms - weekday * DAY_MS);
}

const n = (item: StatsItem | undefined, name: string) => {
  const value = item?.[name];
  return typeof value === 'number' ? value : 0;
};

/**
 * The median of minute buckets: the bucket holding the ⌈count/2⌉-th accept (the lower middle for
 * an even count), so it is a whole number of minutes; null with no accepts.
 */
export function medianOfBuckets(buckets: ReadonlyMap<number, number>): number | null {
  const total = [...buckets.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const middle = Math.ceil(total / 2);
  let seen = 0;
  for (const minute of [...buckets.keys()].sort((a, b) => a - b)) {
    seen += buckets.get(minute)!;
    if (seen >= middle) return minute;
  }
  return null;
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

const NO_PRO_ROWS = 50;

export function analyticsOf(overall: StatsItem, days: readonly StatsItem[], range: DayRange, by: AnalyticsGrouping): Analytics {
  const all = (name: string) => n(overall, name);
  const sum = (name: string) => days.reduce((total, day) => total + n(day, name), 0);

  // Every period of the range, those without activity too (a chart shows the gaps as zeros).
  const periods = new Map<string, MoneyPeriod>();
  for (let ms = dayMs(range.from); ms <= dayMs(range.to); ms += DAY_MS) {
    const period = periodOf(dayString(ms), by);
    if (!periods.has(period)) {
      periods.set(period, { period, grossCents: 0, platformFeeCents: 0, proPayoutCents: 0, heldCents: 0, releasedCents: 0, payments: 0 });
    }
  }
  const buckets = new Map<number, number>();
  const sent = new Map<string, number>();
  const noPro = new Map<string, number>();
  for (const day of days) {
    const into = periods.get(periodOf(day.day ?? day.sk.slice('DAY#'.length), by));
    if (into) {
      into.grossCents += n(day, counter.grossCents);
      into.platformFeeCents += n(day, counter.feeCents);
      into.proPayoutCents += n(day, counter.payoutCents);
      into.heldCents += n(day, counter.heldCents);
      into.releasedCents += n(day, counter.releasedCents);
      into.payments += n(day, counter.payments);
    }
    for (const [name, value] of Object.entries(day)) {
      if (typeof value !== 'number') continue;
      if (name.startsWith('tta:')) buckets.set(Number(name.slice(4)), (buckets.get(Number(name.slice(4))) ?? 0) + value);
      else if (name.startsWith('sent:')) sent.set(name.slice(5), (sent.get(name.slice(5)) ?? 0) + value);
      else if (name.startsWith('nopro:')) noPro.set(name.slice(6), (noPro.get(name.slice(6)) ?? 0) + value);
    }
  }
  const moneyPeriods = [...periods.values()];
  const totals = {
    grossCents: sum(counter.grossCents),
    platformFeeCents: sum(counter.feeCents),
    proPayoutCents: sum(counter.payoutCents),
    heldCents: sum(counter.heldCents),
    releasedCents: sum(counter.releasedCents),
    payments: sum(counter.payments),
  };
  const funnel = Object.fromEntries(funnelSteps.map((step) => [step, sum(counter.funnel(step))])) as Analytics['funnel'];
  const onTime = sum(counter.arrivedOnTime);
  const late = sum(counter.arrivedLate);
  const places = new Set([...sent.keys(), ...noPro.keys()]);
  const noProRows = [...places]
    .map((place) => {
      const [category = '', area = ''] = place.split(':');
      const s = sent.get(place) ?? 0;
      const none = noPro.get(place) ?? 0;
      return { category, area, sent: s, noPro: none, share: s === 0 ? null : ratio(none, s) };
    })
    .sort((a, b) => b.noPro - a.noPro || (b.share ?? 0) - (a.share ?? 0) || b.sent - a.sent || a.category.localeCompare(b.category) || a.area.localeCompare(b.area))
    .slice(0, NO_PRO_ROWS);
  const reviewCount = all(counter.reviewCount);

  return {
    range: { ...range, by },
    applications: {
      pending: all(counter.application('worker', 'pending')),
      approved: all(counter.application('worker', 'approved')),
      rejected: all(counter.application('worker', 'rejected')),
    },
    companyApplications: {
      pending: all(counter.application('company', 'pending')),
      approved: all(counter.application('company', 'approved')),
      rejected: all(counter.application('company', 'rejected')),
    },
    workers: {
      active: all(counter.workers('active')),
      pendingReview: all(counter.workers('pending_review')),
      suspended: all(counter.workers('suspended')),
      terminated: all(counter.workers('terminated')),
    },
    jobs: { total: all(counter.jobsTotal) },
    averageRating: averageRating(all(counter.reviewSum), reviewCount),
    reviewCount,
    workersOnProbation: all(counter.workersOnProbation),
    money: { periods: moneyPeriods, totals, heldNowCents: all(counter.heldNowCents) },
    funnel,
    timeToAccept: { medianMinutes: medianOfBuckets(buckets), accepted: [...buckets.values()].reduce((a, b) => a + b, 0) },
    arrivals: { onTime, late, onTimeRate: ratio(onTime, onTime + late) },
    noPro: noProRows,
  };
}
