import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DISPATCH_PARTITION_PRECISION } from '../../../shared/domain/dispatch';
import { encodeGeohash } from '../../../shared/domain/geo';
import { counter, NO_AREA, statsEntity, tallyEntity, workerEntity, type StatsItem, type StatsPeriod, type TallyItem } from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { newId } from '../../common/ids';
import { deleteOf, putOf, updateOf } from '../../common/data/expressions';
import { queryAll } from '../../common/data/query';
import { writeTogether, WriteCancelled, type WriteAction } from '../../common/data/transact';
import { declareTableUse } from '../../../shared/entities';

/**
 * The owner's counters (shared/entities/stats.ts). Every function here answers the write that
 * records what a change adds to them (a tally of its own), for the caller to put in the same
 * writeTogether as the change it counts: the change is conditional (on the job's version, state or a
 * field set once), so when it is refused (a second webhook delivery, a timer fired twice, the 19
 * losers of 20 concurrent accepts) no tally is written either, and none is written without the
 * change. The table's stream adds the tallies into the stats items afterwards (`countTallies`), off
 * the path of every user's call: two bookings at the same moment never meet on a shared item.
 */

/** The UTC day of an ISO timestamp: the DAY item it counts in. */
export const dayOf = (iso: string) => iso.slice(0, 10);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * writeTogether for a write that records a tally. The tally's own key is new, so it meets nothing;
 * but the change beside it (a job, an invoice) can meet another transaction on the same item at
 * the same moment, and DynamoDB then cancels one with a TransactionConflict although no condition
 * failed. That one is written again (a few times, a moment apart); a refusal by a condition is
 * final at once, as with writeTogether.
 */
export async function writeCounted(actions: WriteAction[], attempts = 4): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await writeTogether(actions);
    } catch (error) {
      const conflictOnly =
        error instanceof WriteCancelled && error.reasons.includes('TransactionConflict') && !error.reasons.includes('ConditionalCheckFailed');
      if (!conflictOnly || attempt >= attempts) throw error;
      await pause(20 * attempt + Math.random() * 30);
    }
  }
}

type Counts = Partial<Record<StatsPeriod, Record<string, number>>>;

/** The put of one tally: what the change adds to each stats item, zeros left out. */
function tally(counts: Counts): WriteAction {
  const kept: Counts = {};
  for (const [period, adds] of Object.entries(counts) as [StatsPeriod, Record<string, number>][]) {
    const moved = Object.fromEntries(Object.entries(adds).filter(([, by]) => by !== 0));
    if (Object.keys(moved).length) kept[period] = moved;
  }
  const item: TallyItem = { ...tallyEntity.key(newId()), entity: 'tally', counts: kept };
  return { Put: putOf(tallyEntity, item) };
}

const onDay = (at: string, counts: Record<string, number>) => tally({ [`DAY#${dayOf(at)}`]: counts });
const overall = (counts: Record<string, number>) => tally({ ALL: counts });

/** A job's area: its coarse geohash cell, or `none` for a job without a location. */
export function areaOf(job: { latitude: number | null; longitude: number | null }): string {
  return job.latitude === null || job.longitude === null ? NO_AREA : encodeGeohash({ lat: job.latitude, lng: job.longitude }, DISPATCH_PARTITION_PRECISION);
}

interface CountedJob {
  createdAt: string;
  category: string;
  latitude: number | null;
  longitude: number | null;
}

/** Whole minutes from `from` to `to` (ISO). */
const minutesBetween = (from: string, to: string) => Math.max(0, (Date.parse(to) - Date.parse(from)) / 60_000);

export const stats = {
  /** A job was sent (created): the funnel's first step, by trade and area, and the total ever sent. */
  jobSent(job: CountedJob): WriteAction[] {
    return [
      tally({
        [`DAY#${dayOf(job.createdAt)}`]: { [counter.funnel('sent')]: 1, [counter.sentIn(job.category, areaOf(job))]: 1 },
        ALL: { [counter.jobsTotal]: 1 },
      }),
    ];
  },

  /** The job's first offer (never a later round). */
  jobOffered(at: string): WriteAction {
    return onDay(at, { [counter.funnel('offered')]: 1 });
  },

  /** The job's first accept, and how long after it was sent. */
  jobAccepted(at: string, sentAt: string): WriteAction {
    return onDay(at, { [counter.funnel('accepted')]: 1, [counter.acceptMinutes(minutesBetween(sentAt, at))]: 1 });
  },

  jobCompleted(at: string): WriteAction {
    return onDay(at, { [counter.funnel('completed')]: 1 });
  },

  jobVerified(at: string): WriteAction {
    return onDay(at, { [counter.funnel('verified')]: 1 });
  },

  /** The job's search ended with nobody, the first time for this job: by its trade and area. */
  noPro(at: string, job: CountedJob): WriteAction {
    return onDay(at, { [counter.noProIn(job.category, areaOf(job))]: 1 });
  },

  /** A pro arrived (by `arriveBy`: on time) or was reassigned for not arriving in time (late). */
  arrival(at: string, onTime: boolean): WriteAction {
    return onDay(at, { [onTime ? counter.arrivedOnTime : counter.arrivedLate]: 1 });
  },

  /**
   * An invoice was paid: the job is paid (the funnel's last step), the money it moved that day,
   * and, when the pro's share waits for them to set up payouts, what is held now. Gross is the
   * work's price (labour, rush, materials: the platform's fee + the pro's share), without the card
   * fee the customer also paid: that passes straight to the card processor, so it is neither the
   * platform's revenue nor the pros' money.
   */
  paymentSettled(at: string, invoice: { totalAmount: number; transactionFee?: number; platformFee: number; workerShare: number }, held: boolean): WriteAction[] {
    return [
      tally({
        [`DAY#${dayOf(at)}`]: {
          [counter.funnel('paid')]: 1,
          [counter.payments]: 1,
          [counter.grossCents]: invoice.totalAmount - (invoice.transactionFee ?? 0),
          [counter.feeCents]: invoice.platformFee,
          [counter.payoutCents]: invoice.workerShare,
          ...(held ? { [counter.heldCents]: invoice.workerShare } : {}),
        },
        ...(held ? { ALL: { [counter.heldNowCents]: invoice.workerShare } } : {}),
      }),
    ];
  },

  /** A held share went to the pro: released that day, no longer held now. */
  payoutReleased(at: string, cents: number): WriteAction[] {
    return [tally({ [`DAY#${dayOf(at)}`]: { [counter.releasedCents]: cents }, ALL: { [counter.heldNowCents]: -cents } })];
  },

  /** What a pro earned (their share of a paid invoice), on their profile: the per-pro figures read it there. */
  workerEarned(workerId: string, cents: number): WriteAction {
    // Unconditional: a payment is recorded whatever became of the profile (profiles are never
    // deleted, only terminated), and a refused counter must never refuse the payment.
    return { Update: updateOf(workerEntity, workerEntity.key(workerId), { add: { earnedCents: cents, paidJobs: 1 } }) };
  },

  /** A worker profile changed status (`from` null: a new profile; `to` null: one removed). */
  workerStatusMoved(from: string | null, to: string | null): WriteAction {
    return overall({ ...(from ? { [counter.workers(from)]: -1 } : {}), ...(to ? { [counter.workers(to)]: 1 } : {}) });
  },

  /** An application changed status (`from` null: a new one). */
  applicationStatusMoved(kind: 'worker' | 'company', from: string | null, to: string): WriteAction {
    return overall({ ...(from ? { [counter.application(kind, from)]: -1 } : {}), [counter.application(kind, to)]: 1 });
  },

  /** A worker application decided (or an applicant's account made) and the worker profile it moves, as one tally. */
  applicationAndWorkerMoved(
    application: { from: string; to: string } | null,
    worker: { from: string | null; to: string | null },
  ): WriteAction {
    return overall({
      ...(application ? { [counter.application('worker', application.from)]: -1, [counter.application('worker', application.to)]: 1 } : {}),
      ...(worker.from ? { [counter.workers(worker.from)]: -1 } : {}),
      ...(worker.to ? { [counter.workers(worker.to)]: 1 } : {}),
    });
  },

  /** A customer's review: the overall rating is the sum over the count. */
  reviewed(rating: number): WriteAction {
    return overall({ [counter.reviewSum]: rating, [counter.reviewCount]: 1 });
  },

  /** A worker's probation opened (`by` 1) or ended (-1). */
  probationMoved(by: 1 | -1): WriteAction {
    return overall({ [counter.workersOnProbation]: by });
  },

  /**
   * Adds tallies into the stats items and deletes them, in writes of at most `TALLIES_PER_WRITE`
   * tallies with the stats items they move: each tally's delete is conditional on it still being
   * there, so a tally counted before (a stream record delivered twice, a retried batch, two
   * consumers at once) is dropped from the write and the rest written again; a write that met
   * another on a stats item is tried again a moment later. Answers how many tallies this call counted.
   */
  async countTallies(records: readonly TallyItem[]): Promise<number> {
    // One record twice in a batch (a retried batch overlaps the last): a transaction may name an item only once.
    const tallies = [...new Map(records.map((t) => [t.pk, t])).values()];
    let counted = 0;
    for (let i = 0; i < tallies.length; i += TALLIES_PER_WRITE) counted += await countTogether(tallies.slice(i, i + TALLIES_PER_WRITE));
    return counted;
  },

  /** The overall item (current figures); empty before anything was counted. */
  async overall(): Promise<StatsItem> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: statsEntity.key('ALL') }));
    return (out.Item as StatsItem | undefined) ?? { ...statsEntity.key('ALL'), entity: 'stats' };
  },

  /**
   * The DAY items from `from` to `to` (yyyy-mm-dd, both included), oldest first: at most one item a
   * day, so the read is bounded by the range's length, never by how many jobs there are.
   */
  async days(from: string, to: string): Promise<StatsItem[]> {
    const span = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
    const items = await queryAll({ ...statsEntity.range('DAY#'), sk: { ge: `DAY#${from}` }, limit: span });
    return items.filter((item) => (item.day ?? '') <= to);
  },
};

/**
 * Tallies counted in one transaction: with at most two stats items each (a day and ALL), one write
 * stays within DynamoDB's 100 actions, however the tallies' days differ.
 */
export const TALLIES_PER_WRITE = 32;
const COUNT_ATTEMPTS = 8;

/** The sum of the tallies' counts, by stats item. */
export function sumCounts(tallies: readonly TallyItem[]): Map<StatsPeriod, Record<string, number>> {
  const sums = new Map<StatsPeriod, Record<string, number>>();
  for (const t of tallies) {
    for (const [period, adds] of Object.entries(t.counts) as [StatsPeriod, Record<string, number>][]) {
      const sum = sums.get(period) ?? {};
      for (const [name, by] of Object.entries(adds)) sum[name] = (sum[name] ?? 0) + by;
      sums.set(period, sum);
    }
  }
  return sums;
}

async function countTogether(batch: readonly TallyItem[]): Promise<number> {
  let left = [...batch];
  for (let attempt = 1; left.length; attempt++) {
    const sums = [...sumCounts(left)].map(([period, add]) => [period, Object.fromEntries(Object.entries(add).filter(([, by]) => by !== 0))] as const);
    const actions: WriteAction[] = [
      ...left.map((t) => ({ Delete: deleteOf(tallyEntity, tallyEntity.key(t.pk.slice('TALLY#'.length)), (c) => c.exists('pk')) })),
      ...sums
        .filter(([, add]) => Object.keys(add).length)
        .map(([period, add]) => ({
          Update: updateOf(statsEntity, statsEntity.key(period), { set: { entity: statsEntity.name, day: period === 'ALL' ? undefined : period.slice('DAY#'.length) }, add }),
        })),
    ];
    try {
      await writeTogether(actions);
      return left.length;
    } catch (error) {
      if (!(error instanceof WriteCancelled) || attempt >= COUNT_ATTEMPTS) throw error;
      // A tally whose delete was refused was counted already: the rest go again without it.
      const counted = new Set(left.filter((_, i) => error.reasons[i] === 'ConditionalCheckFailed'));
      left = left.filter((t) => !counted.has(t));
      if (!counted.size) await pause(20 * attempt + Math.random() * 50);
    }
  }
  return 0;
}

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [statsEntity, tallyEntity, workerEntity], writes: [statsEntity, tallyEntity, workerEntity] });
