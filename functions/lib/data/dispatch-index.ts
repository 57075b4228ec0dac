import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  DISPATCH_PARTITION_PRECISION,
  DISPATCH_SEARCH_PRECISIONS,
  DISPATCH_SORT_PRECISION,
  nearestUntried,
  type Candidate,
} from '../../../shared/domain/dispatch';
import { cellAndNeighbours, encodeGeohash, type LatLng } from '../../../shared/domain/geo';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { batchWrite } from './batch';
import { workersRepo, type WorkerItem } from './workers';

/**
 * The sparse index dispatch reads instead of scanning workers (DESIGN.md section 6). A worker has
 * entries only while dispatchable, per category:
 * - located: DISPATCH#<category>#<4-char cell> / <9-char geohash>#<id>, so the workers near a
 *   point are a few Queries with begins_with on a finer cell;
 * - not located: DISPATCH#<category>#- / -#<id>, offered after every located worker nearby;
 * - and in both cases DISPATCH#<category> / WORKER#<id>, for jobs whose location is unknown.
 * Entries are a hint: matching re-reads the profiles and skips (and removes) stale entries, so a
 * sync that lost a race can never make dispatch offer a job to an ineligible worker.
 */
const UNLOCATED_CELL = '-';

interface EntryItem {
  pk: string;
  sk: string;
  entity: 'dispatch-entry';
  workerId: string;
  lat: number | null;
  lng: number | null;
}

/** Whether dispatch may offer this worker a job (the worker may still be busy with one). */
export function isDispatchable(worker: WorkerItem): boolean {
  return worker.status === 'active' && worker.isVerified && worker.isAvailable && worker.isClockedIn;
}

/** Dispatchable and free to take a job now. */
export function canTakeOffer(worker: WorkerItem): boolean {
  return isDispatchable(worker) && !worker.activeJobId;
}

export function entriesFor(worker: WorkerItem): EntryItem[] {
  if (!isDispatchable(worker)) return [];
  const location = worker.location;
  return worker.categories.flatMap((category) => {
    const base = { entity: 'dispatch-entry' as const, workerId: worker.id, lat: location?.lat ?? null, lng: location?.lng ?? null };
    const cellEntry = location
      ? keys.dispatchCell(category, location.geohash.slice(0, DISPATCH_PARTITION_PRECISION), location.geohash, worker.id)
      : keys.dispatchCell(category, UNLOCATED_CELL, UNLOCATED_CELL, worker.id);
    return [
      { ...cellEntry, ...base },
      { ...keys.dispatchCategory(category, worker.id), ...base },
    ];
  });
}

export function geohashOf(point: LatLng): string {
  return encodeGeohash(point, DISPATCH_SORT_PRECISION);
}

const entryId = (e: { pk: string; sk: string }) => `${e.pk}|${e.sk}`;
const entryKey = (id: string) => {
  const [pk, sk] = id.split('|') as [string, string];
  return { pk, sk };
};

async function query(pk: string, skPrefix?: string, limit?: number): Promise<EntryItem[]> {
  const items: EntryItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: skPrefix ? 'pk = :pk AND begins_with(sk, :sk)' : 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk, ...(skPrefix ? { ':sk': skPrefix } : {}) },
        ...(limit ? { Limit: limit - items.length } : {}),
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((out.Items ?? []) as EntryItem[]));
    start = out.LastEvaluatedKey;
  } while (start && (!limit || items.length < limit));
  return items;
}

const toCandidate = (e: EntryItem): Candidate => ({
  workerId: e.workerId,
  location: e.lat === null || e.lng === null ? null : { lat: e.lat, lng: e.lng },
});

export const dispatchIndex = {
  /** Makes the worker's entries match their profile: removes what no longer applies, writes the rest. */
  async sync(worker: WorkerItem): Promise<void> {
    const wanted = entriesFor(worker);
    const wantedIds = new Set(wanted.map(entryId));
    const stale = (worker.dispatchEntries ?? []).filter((id) => !wantedIds.has(id)).map(entryKey);
    await batchWrite(wanted, stale);
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.worker(worker.id),
        UpdateExpression: 'SET dispatchEntries = :entries',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':entries': [...wantedIds] },
      }),
    );
  },

  /**
   * Up to `count` workers to offer a job of `category` at `origin` to: free now, not in `tried`,
   * nearest first. Reads the rings of cells around the origin, finest first, and stops as soon as
   * enough eligible workers are found, so the reads depend on the workers near the job, not on
   * the number of workers.
   */
  async findNearest(category: string, origin: LatLng | null, tried: ReadonlySet<string>, count: number): Promise<Candidate[]> {
    const chosen: Candidate[] = [];
    const seen = new Set(tried);
    const take = async (entries: EntryItem[]) => {
      const fresh = nearestUntried(origin, entries.map(toCandidate), seen, Number.POSITIVE_INFINITY);
      if (fresh.length === 0) return;
      const profiles = new Map((await workersRepo.findMany(fresh.map((c) => c.workerId))).map((w) => [w.id, w]));
      const stale: EntryItem[] = [];
      for (const candidate of fresh) {
        seen.add(candidate.workerId);
        const worker = profiles.get(candidate.workerId);
        if (worker && canTakeOffer(worker) && worker.categories.includes(category)) {
          if (chosen.length < count) chosen.push(candidate);
        } else if (!worker || !isDispatchable(worker) || !worker.categories.includes(category)) {
          stale.push(...entries.filter((e) => e.workerId === candidate.workerId));
        }
      }
      if (stale.length) await batchWrite([], stale.map(({ pk, sk }) => ({ pk, sk })));
    };

    if (origin) {
      for (const precision of DISPATCH_SEARCH_PRECISIONS) {
        const cells = cellAndNeighbours(encodeGeohash(origin, precision));
        const rings = await Promise.all(
          cells.map((cell) =>
            query(keys.dispatchCell(category, cell.slice(0, DISPATCH_PARTITION_PRECISION)).pk, cell),
          ),
        );
        await take(rings.flat());
        if (chosen.length >= count) break;
      }
      if (chosen.length < count) {
        await take(await query(keys.dispatchCell(category, UNLOCATED_CELL).pk));
      }
    } else {
      // No location to measure from: any dispatchable worker of the category, a page at a time.
      let start: Record<string, unknown> | undefined;
      do {
        const out = await dynamo.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.dispatchCategory(category).pk },
            Limit: 50,
            ExclusiveStartKey: start,
          }),
        );
        await take((out.Items ?? []) as EntryItem[]);
        start = out.LastEvaluatedKey;
      } while (start && chosen.length < count);
    }
    return nearestUntried(origin, chosen, new Set(), count);
  },

  /** Dispatchable workers of some categories (the client dashboard's list), at most `limit` per category. */
  async listAvailable(categories: readonly string[], limit = 100): Promise<Candidate[]> {
    const pages = await Promise.all(categories.map((c) => query(keys.dispatchCategory(c).pk, undefined, limit)));
    return nearestUntried(null, pages.flat().map(toCandidate), new Set(), Number.POSITIVE_INFINITY);
  },
};
