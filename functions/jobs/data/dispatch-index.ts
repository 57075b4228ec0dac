import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  DISPATCH_PARTITION_PRECISION,
  DISPATCH_SEARCH_PRECISIONS,
  DISPATCH_SORT_PRECISION,
  nearestUntried,
  type Candidate,
} from '../../../shared/domain/dispatch';
import { cellAndNeighbours, decodeGeohash, distanceKm, encodeGeohash, type LatLng } from '../../../shared/domain/geo';
import { dispatchCategoryEntity, dispatchCellEntity, workerEntity, type DispatchEntryItem, type KeyRange } from '../../../shared/entities';
import { dynamo } from '../../common/clients';
import { batchWrite } from '../../common/data/batch';
import { deleteOf, putOf, updateOf } from '../../common/data/expressions';
import { queryAll, queryPage, type PageStart } from '../../common/data/query';
import type { WriteAction } from '../../common/data/transact';
import { workersRepo, type WorkerItem, type WorkerProfileChange } from '../../workers/data/workers';
import { declareTableUse } from '../../../shared/entities';

/**
 * The sparse index dispatch reads instead of scanning workers. A worker has
 * entries only while dispatchable, per category:
 * - located: DISPATCH#<category>#<4-char cell> / <9-char geohash>#<id>, so the workers near a
 *   point are a few Queries with begins_with on a finer cell;
 * - not located: DISPATCH#<category>#- / -#<id>, offered after every located worker nearby;
 * - and in both cases DISPATCH#<category> / WORKER#<id>, for jobs whose location is unknown.
 * Entries are a hint: matching re-reads the profiles and skips (and removes) stale entries, so a
 * sync that lost a race can never make dispatch offer a job to an ineligible worker.
 */
const UNLOCATED_CELL = '-';

type EntryItem = DispatchEntryItem;

/** Whether dispatch may offer this worker a job (the worker may still be busy with one). */
export function isDispatchable(worker: WorkerItem): boolean {
  return worker.status === 'active' && worker.isVerified && worker.isAvailable && worker.isClockedIn && !offersPaused(worker);
}

/** A required document expired and no valid one is approved yet (functions/documents/expire-documents.ts). */
export function offersPaused(worker: WorkerItem): boolean {
  return (worker.offersPausedFor?.size ?? 0) > 0;
}

/** Dispatchable and free to take a job now. */
export function canTakeOffer(worker: WorkerItem): boolean {
  return isDispatchable(worker) && !worker.activeJobId;
}

/**
 * Whether a job scheduled for later may be offered to this worker, whether or not they are on the
 * clock now: a contract worker takes scheduled assignments (their promise is the schedule), an
 * independent pro (or one who has not chosen) only while on call. Active, verified, offers not paused.
 */
export function isSchedulable(worker: WorkerItem): boolean {
  return worker.status === 'active' && worker.isVerified && !offersPaused(worker) && (worker.workerType === 'contract' || worker.isAvailable);
}

/** Schedulable and holding no job (accepting one is conditional on that too). */
export function canTakeScheduledOffer(worker: WorkerItem): boolean {
  return isSchedulable(worker) && !worker.activeJobId;
}

/** The index partitions of schedulable workers sit beside the dispatchable ones, under a category of their own. */
const laterCategory = (category: string) => `later:${category}`;

export function entriesFor(worker: WorkerItem): EntryItem[] {
  // Once per category, however often a stored profile lists it: a batch or a transaction refuses
  // two writes of one item.
  const categories = [...new Set(worker.categories)];
  return [
    ...(isDispatchable(worker) ? entriesIn(worker, categories) : []),
    ...(isSchedulable(worker) ? entriesIn(worker, categories.map(laterCategory)) : []),
  ];
}

function entriesIn(worker: WorkerItem, categories: readonly string[]): EntryItem[] {
  const location = worker.location;
  return categories.flatMap((category) => {
    const base = { entity: 'dispatch-entry' as const, workerId: worker.id, lat: location?.lat ?? null, lng: location?.lng ?? null };
    const cellEntry = location
      ? dispatchCellEntity.key(category, location.geohash.slice(0, DISPATCH_PARTITION_PRECISION), location.geohash, worker.id)
      : dispatchCellEntity.key(category, UNLOCATED_CELL, UNLOCATED_CELL, worker.id);
    return [
      { ...cellEntry, ...base },
      { ...dispatchCategoryEntity.key(category, worker.id), ...base },
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

/** A cell's entries, those whose fine geohash begins with `prefix` (a finer cell), or all of them. */
function cellEntries(category: string, cell: string, prefix?: string): Promise<EntryItem[]> {
  const range: KeyRange<EntryItem> = dispatchCellEntity.range(category, cell);
  return queryAll(prefix ? { ...range, sk: { beginsWith: prefix } } : range);
}

const toCandidate = (e: EntryItem): Candidate => ({
  workerId: e.workerId,
  location: e.lat === null || e.lng === null ? null : { lat: e.lat, lng: e.lng },
});

/** How far from `origin` the ring of cells at `precision` reaches in every direction, in km. */
export function ringRadiusKm(origin: LatLng, precision: number): number {
  const { latMin, latMax, lngMin, lngMax } = decodeGeohash(encodeGeohash(origin, precision));
  const [h, w] = [latMax - latMin, lngMax - lngMin];
  const kmPerLng = KM_PER_DEGREE * Math.cos((origin.lat * Math.PI) / 180);
  return Math.min(
    (origin.lat - (latMin - h)) * KM_PER_DEGREE,
    (latMax + h - origin.lat) * KM_PER_DEGREE,
    (origin.lng - (lngMin - w)) * kmPerLng,
    (lngMax + w - origin.lng) * kmPerLng,
  );
}
const KM_PER_DEGREE = 111.19;

interface Found extends Candidate {
  km: number;
  entries: EntryItem[];
}

/** The nearest eligible workers among the entries seen so far, checking profiles only as needed. */
class NearestSearch {
  private readonly pool = new Map<string, Found>();
  private readonly seen: Set<string>;
  private chosen: Found[] = [];

  constructor(
    private readonly category: string,
    private readonly origin: LatLng | null,
    tried: ReadonlySet<string>,
    private readonly count: number,
    /** The hiring list shows workers busy on a job too (as not available right now); dispatch does not. */
    private readonly includeBusy: boolean,
    /** A job scheduled for later: the schedulable workers' partitions, and their rule. */
    private readonly later = false,
  ) {
    this.seen = new Set(tried);
  }

  add(entries: readonly EntryItem[]): void {
    for (const entry of entries) {
      const known = this.pool.get(entry.workerId);
      if (known) {
        known.entries.push(entry);
        continue;
      }
      if (this.seen.has(entry.workerId)) continue;
      this.seen.add(entry.workerId);
      const candidate = toCandidate(entry);
      const km = this.origin && candidate.location ? distanceKm(this.origin, candidate.location) : Number.POSITIVE_INFINITY;
      // Unlocated entries are infinitely far; the stable sorts keep them in the order they came.
      this.pool.set(entry.workerId, { ...candidate, km, entries: [entry] });
    }
  }

  isFull(): boolean {
    return this.chosen.length >= this.count;
  }

  /** Whether the nearest `count` are known for sure, given every worker within `radiusKm` was seen. */
  isDecidedWithin(radiusKm: number): boolean {
    return this.isFull() && this.chosen[this.count - 1]!.km <= radiusKm;
  }

  /** Checks the nearest unchecked entries against their profiles until none could still make the cut. */
  async settle(): Promise<void> {
    for (;;) {
      const cut = this.isFull() ? this.chosen[this.count - 1]!.km : Number.POSITIVE_INFINITY;
      const contenders = [...this.pool.values()]
        .filter((f) => f.km < cut || !this.isFull())
        .sort((a, b) => a.km - b.km)
        .slice(0, this.count - Math.min(this.count, this.chosen.length) + 2);
      if (contenders.length === 0) return;
      const profiles = new Map((await workersRepo.findMany(contenders.map((c) => c.workerId))).map((w) => [w.id, w]));
      const stale: EntryItem[] = [];
      for (const found of contenders) {
        this.pool.delete(found.workerId);
        const worker = profiles.get(found.workerId);
        const listed = this.later ? isSchedulable : isDispatchable;
        const eligible = worker && (this.includeBusy ? listed(worker) : this.later ? canTakeScheduledOffer(worker) : canTakeOffer(worker));
        if (eligible && worker.categories.includes(this.category)) this.chosen.push(found);
        else if (!worker || !listed(worker) || !worker.categories.includes(this.category)) stale.push(...found.entries);
      }
      this.chosen = this.chosen.sort((a, b) => a.km - b.km).slice(0, this.count);
      if (stale.length) await batchWrite([], stale.map(({ pk, sk }) => ({ pk, sk })));
    }
  }

  result(): Candidate[] {
    return this.chosen.map(({ workerId, location }) => ({ workerId, location }));
  }
}

export const dispatchIndex = {
  /** Makes the worker's entries match their profile: removes what no longer applies, writes the rest. */
  async sync(worker: WorkerItem): Promise<void> {
    const wanted = entriesFor(worker);
    const wantedIds = new Set(wanted.map(entryId));
    const stale = [...new Set(worker.dispatchEntries ?? [])].filter((id) => !wantedIds.has(id)).map(entryKey);
    await batchWrite(wanted, stale);
    await dynamo.send(
      new UpdateCommand(updateOf(workerEntity, workerEntity.key(worker.id), { set: { dispatchEntries: [...wantedIds] }, if: (c) => c.exists('pk') })),
    );
  },

  /**
   * The writes that make the index match `next`, given the entries written for `current`: puts of
   * its entries, deletes of the rest (at most 2 per category each way, well inside a transaction).
   */
  changeFor(next: WorkerItem, current: WorkerItem): { writes: WriteAction[]; entries: string[] } {
    const wanted = entriesFor(next);
    const wantedIds = new Set(wanted.map(entryId));
    const stale = [...new Set(current.dispatchEntries ?? [])].filter((id) => !wantedIds.has(id)).map(entryKey);
    return {
      writes: [
        ...wanted.map((item): WriteAction => ({ Put: putOf(dispatchCellEntity, item) })),
        ...stale.map((key): WriteAction => ({ Delete: deleteOf(dispatchCellEntity, key) })),
      ],
      entries: [...wantedIds],
    };
  },

  /** A profile change and the index change it implies, in one transaction (workersRepo.updateProfile). */
  async saveProfile(workerId: string, change: WorkerProfileChange): Promise<WorkerItem> {
    return workersRepo.updateProfile(workerId, change, (next, current) => dispatchIndex.changeFor(next, current));
  },

  /**
   * Up to `count` workers to offer a job of `category` at `origin` to: free now, not in `tried`,
   * nearest first. Reads the ring of cells around the origin, finest first, and stops at the first
   * ring that provably holds the nearest ones (the count-th is closer than the ring's edge), so the
   * reads depend on the workers near the job, not on the number of workers. Only the nearest
   * entries found are checked against their profiles (a BatchGet of a few).
   */
  async findNearest(
    category: string,
    origin: LatLng | null,
    tried: ReadonlySet<string>,
    count: number,
    options: { includeBusy?: boolean; later?: boolean } = {},
  ): Promise<Candidate[]> {
    const search = new NearestSearch(category, origin, tried, count, options.includeBusy ?? false, options.later ?? false);
    // The category's partitions: those of workers on the clock now, or of those who take scheduled work.
    const indexed = options.later ? laterCategory(category) : category;
    if (origin) {
      for (const precision of DISPATCH_SEARCH_PRECISIONS) {
        const cells = cellAndNeighbours(encodeGeohash(origin, precision));
        const rings = await Promise.all(
          cells.map((cell) => cellEntries(indexed, cell.slice(0, DISPATCH_PARTITION_PRECISION), cell)),
        );
        search.add(rings.flat());
        await search.settle();
        if (search.isDecidedWithin(ringRadiusKm(origin, precision))) return search.result();
      }
      if (!search.isFull()) {
        search.add(await cellEntries(indexed, UNLOCATED_CELL));
        await search.settle();
      }
      return search.result();
    }
    // No location to measure from: any dispatchable worker of the category, a page at a time.
    let start: PageStart | undefined;
    do {
      const page = await queryPage({ pk: dispatchCategoryEntity.key(indexed).pk, limit: 50 }, start);
      search.add(page.items as EntryItem[]);
      await search.settle();
      start = page.next;
    } while (start && !search.isFull());
    return search.result();
  },

  /** Dispatchable workers of some categories (the client dashboard's list), at most `limit` per category. */
  async listAvailable(categories: readonly string[], limit = 100): Promise<Candidate[]> {
    const pages = await Promise.all(categories.map((c) => queryAll<EntryItem>({ pk: dispatchCategoryEntity.key(c).pk, limit })));
    return nearestUntried(null, pages.flat().map(toCandidate), new Set(), Number.POSITIVE_INFINITY);
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [dispatchCategoryEntity, dispatchCellEntity, workerEntity], writes: [dispatchCategoryEntity, dispatchCellEntity, workerEntity] });
