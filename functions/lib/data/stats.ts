import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DISPATCH_PARTITION_PRECISION } from '../../../shared/domain/dispatch';
import { encodeGeohash } from '../../../shared/domain/geo';
import { counter, NO_AREA, statsEntity, workerEntity, type StatsItem } from '../../../shared/entities';
import { dynamo, tableName } from '../clients';
import { updateOf } from './expressions';
import { queryAll } from './query';
import { writeTogether, WriteCancelled, type WriteAction } from './transact';

/**
 * The owner's counters (shared/entities/stats.ts). Every function here answers the write that
 * moves them, for the caller to put in the same writeTogether as the change it counts: the change
 * is conditional (on the job's version, state or a field set once), so when it is refused (a second
 * webhook delivery, a timer fired twice, the 19 losers of 20 concurrent accepts) the counter does
 * not move either, and it never moves without the change.
 */

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * writeTogether for a write that moves counters. Every change of a day touches that day's stats
 * item, so two unrelated changes at the same moment can meet there: DynamoDB cancels one with a
 * TransactionConflict although no condition failed. That one is written again (a few times, a
 * moment apart); a refusal by a condition is final at once, as with writeTogether.
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

/** The UTC day of an ISO timestamp: the DAY item it counts in. */
export const dayOf = (iso: string) => iso.slice(0, 10);

/** ADD of each counter to one stats item (a new item starts at 0); `entity` (and the day) set alongside. */
function addTo(sk: 'ALL' | `DAY#${string}`, counts: Record<string, number>): WriteAction {
  const add = Object.fromEntries(Object.entries(counts).filter(([, by]) => by !== 0));
  const day = sk === 'ALL' ? undefined : sk.slice('DAY#'.length);
  return { Update: updateOf(statsEntity, statsEntity.key(sk), { set: { entity: statsEntity.name, day }, add }) };
}

const onDay = (at: string, counts: Record<string, number>) => addTo(`DAY#${dayOf(at)}`, counts);
const overall = (counts: Record<string, number>) => addTo('ALL', counts);

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
      onDay(job.createdAt, { [counter.funnel('sent')]: 1, [counter.sentIn(job.category, areaOf(job))]: 1 }),
      overall({ [counter.jobsTotal]: 1 }),
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
      onDay(at, {
        [counter.funnel('paid')]: 1,
        [counter.payments]: 1,
        [counter.grossCents]: invoice.totalAmount - (invoice.transactionFee ?? 0),
        [counter.feeCents]: invoice.platformFee,
        [counter.payoutCents]: invoice.workerShare,
        ...(held ? { [counter.heldCents]: invoice.workerShare } : {}),
      }),
      ...(held ? [overall({ [counter.heldNowCents]: invoice.workerShare })] : []),
    ];
  },

  /** A held share went to the pro: released that day, no longer held now. */
  payoutReleased(at: string, cents: number): WriteAction[] {
    return [onDay(at, { [counter.releasedCents]: cents }), overall({ [counter.heldNowCents]: -cents })];
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

  /**
   * A worker application decided (or an applicant's account made) and the worker profile it moves,
   * as ONE write of the overall item: a transaction may not touch an item twice, so the two moves
   * of applicationStatusMoved and workerStatusMoved go together here.
   */
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
