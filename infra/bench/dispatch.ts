import { performance } from 'node:perf_hooks';
import { BatchWriteCommand, DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { categorySlugs } from '../../shared/categories';
import { distanceKm, encodeGeohash, type LatLng } from '../../shared/domain/geo';
import { DISPATCH_SORT_PRECISION } from '../../shared/domain/dispatch';
import { keys } from '../../shared/entities';
import { ensureTable, localDynamoClient, startDynalite } from '../local/dynamo';
import { localFunctionEnv, LOCAL_TABLE } from '../local/stack';
import { median } from './timing';

/**
 * Dispatch matching at scale: one job among N available workers spread over a city, matched by the
 * production code (the sparse geohash index) and by a Scan-and-filter of the same table, in the
 * same run, against the same in-memory dynalite. Items read are counted from the answers
 * (ScannedCount, BatchGet responses): the index's reads must not grow with N.
 *
 * Each job is matched twice over: as a job for now (the workers on the clock) and as a job
 * scheduled for later (the `later:` entries of schedulable workers: contract workers clocked in or
 * not, independent pros on call), each against its own Scan-and-filter with the same rule.
 */
export type DispatchJob = 'now' | 'scheduled';

export interface DispatchRow {
  job: DispatchJob;
  workers: number;
  indexMs: number;
  scanMs: number;
  indexItems: number;
  scanItems: number;
  sameWorkers: boolean;
}

const CITY: LatLng = { lat: 37.7749, lng: -122.4194 };
const CITY_KM = 30;

/** A deterministic pseudo-random sequence, so every run seeds the same city. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function pointIn(rand: () => number): LatLng {
  return {
    lat: CITY.lat + ((rand() - 0.5) * CITY_KM) / 111.2,
    lng: CITY.lng + ((rand() - 0.5) * CITY_KM) / (111.2 * Math.cos((CITY.lat * Math.PI) / 180)),
  };
}

export async function measureDispatch(sizes: readonly number[], runs: number): Promise<DispatchRow[]> {
  const server = await startDynalite();
  const raw = localDynamoClient(server.endpoint);
  Object.assign(process.env, localFunctionEnv(server.endpoint, 'http://127.0.0.1:9'));
  try {
    await ensureTable(raw, LOCAL_TABLE);
    const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
    const { dispatchIndex, entriesFor } = await import('../../functions/jobs/data/dispatch-index');
    const { dynamo } = await import('../../functions/common/clients');

    // Counts what the production client reads, from its answers.
    let itemsRead = 0;
    dynamo.middlewareStack.add(
      (next) => async (args) => {
        const out = await next(args);
        const o = out.output as { ScannedCount?: number; Responses?: Record<string, unknown[]> };
        itemsRead += o.ScannedCount ?? Object.values(o.Responses ?? {}).reduce((n, r) => n + r.length, 0);
        return out;
      },
      { step: 'initialize', name: 'benchReadCounter' },
    );

    const rows: DispatchRow[] = [];
    const rand = random(42);
    // Its own sequence, so the places and trades stay those of the on-demand city as it was.
    const shift = random(7);
    let seeded = 0;
    for (const size of sizes) {
      // Grow the same city to `size` workers.
      const items: Record<string, unknown>[] = [];
      for (; seeded < size; seeded++) {
        const at = pointIn(rand);
        const id = `bench-worker-${String(seeded).padStart(6, '0')}`;
        const cats = [categorySlugs[Math.floor(rand() * 6)]!, ...(rand() < 0.5 ? [categorySlugs[Math.floor(rand() * 6)]!] : [])];
        const now = new Date().toISOString();
        // About a third under contract; pros on call mostly, some of them off the clock now, so
        // the scheduled pool differs from the on-demand one both ways.
        const workerType = shift() < 0.3 ? 'contract' : 'independent';
        const isAvailable = shift() < 0.8;
        const isClockedIn = isAvailable && shift() < 0.7;
        const worker = {
          ...keys.worker(id),
          entity: 'worker', id, applicationId: id, fullName: `Worker ${seeded}`, email: `${id}@example.com`, phone: '5550100000',
          address: 'Bench', status: 'active', strikes: 0, isVerified: true, isAvailable, isClockedIn, lastClockIn: now,
          yearsExp: 5, categories: [...new Set(cats)], hourlyRate: 4500, workerType, profilePhotoKey: null, hasAccount: true,
          location: { ...at, accuracy: 10, geohash: encodeGeohash(at, DISPATCH_SORT_PRECISION), at: now },
          createdAt: now, updatedAt: now,
        };
        const entries = entriesFor(worker as never);
        items.push({ ...worker, dispatchEntries: entries.map((e) => `${e.pk}|${e.sk}`) }, ...(entries as unknown as Record<string, unknown>[]));
      }
      for (let i = 0; i < items.length; i += 25) {
        await doc.send(new BatchWriteCommand({ RequestItems: { [LOCAL_TABLE]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
      }

      const jobs: readonly DispatchJob[] = ['now', 'scheduled'];
      const tally = new Map(jobs.map((job) => [job, { index: [] as number[], scan: [] as number[], indexItems: 0, scanItems: 0, sameWorkers: true }]));
      for (let run = 0; run < runs; run++) {
        const origin = pointIn(rand);
        const category = categorySlugs[run % 6]!;
        // Alternate which goes first, so neither always meets a warmer process.
        const order = run % 2 === 0 ? ['index', 'scan'] : ['scan', 'index'];
        for (const job of run % 2 === 0 ? jobs : [...jobs].reverse()) {
          const t = tally.get(job)!;
          let byIndex: string[] = [];
          let byScan: string[] = [];
          for (const which of order) {
            const readsBefore = itemsRead;
            const start = performance.now();
            if (which === 'index') {
              byIndex = (await dispatchIndex.findNearest(category, origin, new Set(), 3, { later: job === 'scheduled' })).map((c) => c.workerId);
              t.index.push(performance.now() - start);
              t.indexItems = itemsRead - readsBefore;
            } else {
              const found = await scanAndFilter(dynamo, job, category, origin);
              byScan = found.ids;
              t.scan.push(performance.now() - start);
              t.scanItems = found.scanned;
            }
          }
          t.sameWorkers &&= byIndex.join() === byScan.join();
        }
      }
      for (const [job, t] of tally) {
        rows.push({ job, workers: size, indexMs: median(t.index), scanMs: median(t.scan), indexItems: t.indexItems, scanItems: t.scanItems, sameWorkers: t.sameWorkers });
      }
    }
    doc.destroy();
    return rows;
  } finally {
    raw.destroy();
    await server.close();
  }
}

/**
 * The eligibility rules as filters, without the index: on the clock now, or schedulable (a contract
 * worker, or a pro on call) for a job later; either way free of a job.
 */
const ELIGIBLE: Record<DispatchJob, string> = {
  now: 'isAvailable = :t AND isClockedIn = :t',
  scheduled: '(workerType = :contract OR isAvailable = :t) AND attribute_not_exists(offersPausedFor)',
};

/** The same matching without the index: read every item, keep the eligible workers, sort by distance. */
async function scanAndFilter(
  client: DynamoDBDocumentClient,
  job: DispatchJob,
  category: string,
  origin: LatLng,
): Promise<{ ids: string[]; scanned: number }> {
  const workers: { id: string; location: LatLng }[] = [];
  let scanned = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await client.send(
      new ScanCommand({
        TableName: LOCAL_TABLE,
        FilterExpression:
          `entity = :worker AND #status = :active AND isVerified = :t AND ${ELIGIBLE[job]} AND contains(categories, :c) AND attribute_not_exists(activeJobId)`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':worker': 'worker', ':active': 'active', ':t': true, ':c': category, ...(job === 'scheduled' ? { ':contract': 'contract' } : {}) },
        ExclusiveStartKey: start,
      }),
    );
    scanned += out.ScannedCount ?? 0;
    workers.push(...((out.Items ?? []) as { id: string; location: LatLng }[]));
    start = out.LastEvaluatedKey;
  } while (start);
  const ids = workers
    .sort((a, b) => distanceKm(origin, a.location) - distanceKm(origin, b.location))
    .slice(0, 3)
    .map((w) => w.id);
  return { ids, scanned };
}
