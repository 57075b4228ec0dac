import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { BatchWriteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { categorySlugs } from '../../shared/categories';
import { OWNER_SESSION_COOKIE } from '../../shared/constants';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../shared/edge';
import { routes } from '../../shared/routes';
import { ensureTable, localDynamoClient, startDynalite } from '../local/dynamo';
import { seedLocalSecret, startLocalSecretsManager } from '../local/secrets-manager';
import { localFunctionEnv, LOCAL_TABLE } from '../local/stack';
import { markdownTable, ms, verdict } from './report';
import { median } from './timing';
import { functionFile } from '../../shared/function-files';

/**
 * The owner dashboard at 1,000 and at 100,000 jobs, side by side in one run: the calls each screen
 * makes, through the real handlers (origin check, owner session and all) against one in-memory
 * dynalite, their items read counted from the answers (a Query's ScannedCount, a GetItem's item, a
 * BatchGet's items) and their time. The jobs are seeded straight in with BatchWrite, with the stats
 * items their changes would have moved (functions/owner/data/stats.ts), so the figures match them.
 * Beside them, what the analytics call read before it had counters: every job.
 */

const root = path.resolve(import.meta.dirname, '../..');
export const OWNER_SIZES = [1_000, 100_000] as const;
const RUNS = 5;
const DAY_MS = 86_400_000;

/**
 * The calls the /admin page makes when it opens (its Applications tab), and those of its other tabs.
 * `maxItems`: what the reads are bounded by where that is not "the same at any size": the analytics
 * read one stats item per day of the range (a day without activity has none, so fewer jobs can read
 * fewer), the overall item, a page of pros, and each call's session.
 */
const SCREENS: { name: string; calls: { route: string; query?: Record<string, string> }[]; maxItems?: number }[] = [
  {
    name: 'First screen (/admin: status, me, applications)',
    calls: [{ route: 'get-admin-status' }, { route: 'get-current-user' }, { route: 'list-pending-workers' }, { route: 'list-company-applications' }],
  },
  {
    name: 'Analytics tab (30 days, pros page)',
    calls: [{ route: 'get-analytics', query: {} }, { route: 'list-pro-figures', query: {} }],
    maxItems: 30 + 1 + 50 + 2,
  },
  {
    name: 'Analytics, 400 days by month',
    calls: [{ route: 'get-analytics', query: { from: dayOf(Date.now() - 399 * DAY_MS), to: dayOf(Date.now()), by: 'month' } }],
    maxItems: 400 + 1 + 1,
  },
  { name: 'Jobs tab (first page)', calls: [{ route: 'list-jobs', query: {} }] },
];
const BEFORE = 'Analytics as before (every job read)';

export interface OwnerRow {
  screen: string;
  jobs: number;
  items: number;
  ms: number;
}

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A deterministic pseudo-random sequence, so every run seeds the same jobs. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const context = { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

export async function measureOwnerDashboard(log: (message: string) => void): Promise<OwnerRow[]> {
  const server = await startDynalite();
  const raw = localDynamoClient(server.endpoint);
  const secretsDir = mkdtempSync(path.join(tmpdir(), 'bench-owner-secrets-'));
  const secrets = await startLocalSecretsManager(secretsDir);
  const originSecret = randomBytes(32).toString('base64url');
  seedLocalSecret(secrets, 'origin', { value: originSecret });
  Object.assign(process.env, localFunctionEnv(server.endpoint, 'http://127.0.0.1:9', undefined, undefined, undefined, { endpoint: secrets.endpoint, ids: secrets.secretIds() }));
  const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  try {
    await ensureTable(raw, LOCAL_TABLE);
    const { dynamo } = await import('../../functions/common/clients');
    const { jobItem } = await import('../../functions/jobs/data/jobs');
    const { queryAllOf } = await import('../../functions/common/data/query');
    const { areaOf, dayOf: statsDay } = await import('../../functions/owner/data/stats');
    const { sessionItem } = await import('../../functions/common/auth/sessions');
    const { counter, jobEntity, statsEntity, workerEntity } = await import('../../shared/entities');

    let itemsRead = 0;
    dynamo.middlewareStack.add(
      (next) => async (args) => {
        const out = await next(args);
        const o = out.output as { ScannedCount?: number; Responses?: Record<string, unknown[]>; Item?: unknown; $metadata?: unknown };
        if (o.ScannedCount !== undefined) itemsRead += o.ScannedCount;
        else if (o.Responses) itemsRead += Object.values(o.Responses).reduce((n, r) => n + r.length, 0);
        else if ('Item' in o) itemsRead += o.Item ? 1 : 0;
        return out;
      },
      { step: 'initialize', name: 'benchOwnerReadCounter' },
    );

    // The owner's session, and 200 pros (the pros' page reads one page of them).
    const secret = randomBytes(32).toString('base64url');
    await doc.send(new PutCommand({ TableName: LOCAL_TABLE, Item: sessionItem('admin', 'bench-owner', 'owner', secret) }));
    const now = new Date().toISOString();
    const workers = Array.from({ length: 200 }, (_, i) => {
      const id = `bench-pro-${String(i).padStart(4, '0')}`;
      return {
        ...workerEntity.key(id), ...workerEntity.indexes.all.keyFor(workerEntity.key(id), now), entity: 'worker', id, applicationId: id, fullName: `Pro ${i}`,
        email: `${id}@example.com`, phone: '5550100000', address: 'Bench', status: 'active', strikes: i % 3, isVerified: true,
        isAvailable: false, isClockedIn: false, lastClockIn: null, yearsExp: 5, categories: ['plumbing'], hourlyRate: 5000,
        workerType: 'independent', profilePhotoKey: null, hasAccount: true, ratingSum: 9, ratingCount: 2, earnedCents: 9000 * i, paidJobs: i,
        createdAt: now, updatedAt: now,
      };
    });
    await writeAll(doc, workers);

    const rand = random(7);
    const days = new Map<string, Record<string, number>>();
    const bump = (day: string, name: string, by = 1) => {
      const counts = days.get(day) ?? {};
      counts[name] = (counts[name] ?? 0) + by;
      days.set(day, counts);
    };
    let seeded = 0;
    const rows: OwnerRow[] = [];
    const event = eventMaker(originSecret, `${OWNER_SESSION_COOKIE}=${secret}`);
    for (const size of OWNER_SIZES) {
      log(`owner dashboard: seeding to ${size.toLocaleString('en-US')} jobs`);
      const batch: Record<string, unknown>[] = [];
      for (; seeded < size; seeded++) {
        // Sent over the last year; a few were found no pro, most were paid.
        const created = new Date(Date.now() - Math.floor(rand() * 365 * DAY_MS)).toISOString();
        const category = categorySlugs[Math.floor(rand() * categorySlugs.length)]!;
        const place = { lat: 37.7 + rand() * 0.3, lng: -122.5 + rand() * 0.3 };
        const job = jobItem({
          id: `bench-job-${String(seeded).padStart(7, '0')}`, kind: 'request', customerId: `bench-customer-${seeded % 5000}`, category,
          service: category, customerName: `Customer ${seeded}`, customerPhone: '5550100000', address: 'Bench', latitude: place.lat,
          longitude: place.lng, description: 'Bench job', createdAt: created,
        });
        const paid = rand() < 0.8;
        batch.push({ ...job, state: paid ? 'paid' : 'booked', ...(paid ? {} : { dispatch: 'no_worker_available' }) });
        const day = statsDay(created);
        bump(day, counter.funnel('sent'));
        bump(day, counter.sentIn(category, areaOf(job)));
        if (paid) {
          for (const step of ['offered', 'accepted', 'completed', 'verified', 'paid'] as const) bump(day, counter.funnel(step));
          bump(day, counter.acceptMinutes(Math.floor(rand() * 30)));
          bump(day, counter.arrivedOnTime);
          bump(day, counter.grossCents, 10_000);
          bump(day, counter.feeCents, 1_000);
          bump(day, counter.payoutCents, 9_000);
          bump(day, counter.payments);
        } else bump(day, counter.noProIn(category, areaOf(job)));
      }
      await writeAll(doc, batch);
      const stats = [...days].map(([day, counts]) => ({ ...statsEntity.key(`DAY#${day}`), entity: 'stats', day, ...counts }));
      await writeAll(doc, [...stats, { ...statsEntity.key('ALL'), entity: 'stats', [counter.jobsTotal]: size, [counter.workers('active')]: workers.length }]);

      for (const screen of SCREENS) {
        const handlers = await Promise.all(screen.calls.map(async (call) => ({ call, handler: await handlerOf(call.route) })));
        const times: number[] = [];
        let items = 0;
        for (let run = 0; run < RUNS; run++) {
          const before = itemsRead;
          const start = performance.now();
          // As the browser asks them: at once.
          const answers = await Promise.all(handlers.map(({ call, handler }) => handler(event(call.route, call.query), context)));
          times.push(performance.now() - start);
          items = itemsRead - before;
          const failed = answers.find((a) => (a.statusCode ?? 200) >= 400);
          if (failed) throw new Error(`${screen.name}: a call answered ${failed.statusCode}: ${failed.body}`);
        }
        rows.push({ screen: screen.name, jobs: size, items, ms: median(times) });
      }
      const times: number[] = [];
      let items = 0;
      for (let run = 0; run < RUNS; run++) {
        const before = itemsRead;
        const start = performance.now();
        await queryAllOf(jobEntity.indexes.all.ranges());
        times.push(performance.now() - start);
        items = itemsRead - before;
      }
      rows.push({ screen: BEFORE, jobs: size, items, ms: median(times) });
    }
    return rows;
  } finally {
    doc.destroy();
    raw.destroy();
    await Promise.all([server.close(), secrets.close()]);
    rmSync(secretsDir, { recursive: true, force: true });
  }
}

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

async function handlerOf(route: string): Promise<Handler> {
  if (!routes.some((r) => r.name === route)) throw new Error(`No route ${route} in the manifest`);
  return ((await import(pathToFileURL(path.join(root, functionFile(route))).href)) as { handler: Handler }).handler;
}

/** A route's sample event as the owner's browser sends it through CloudFront, with this query. */
function eventMaker(originSecret: string, cookie: string) {
  return (route: string, query?: Record<string, string>): APIGatewayProxyEventV2 => {
    const sample = JSON.parse(readFileSync(path.join(root, 'events', `${route}.json`), 'utf8')) as APIGatewayProxyEventV2;
    return {
      ...sample,
      headers: { ...sample.headers, [ORIGIN_VERIFY_HEADER]: originSecret, [VIEWER_ADDRESS_HEADER]: '127.0.0.1' },
      cookies: [cookie],
      ...(query ? { queryStringParameters: query, rawQueryString: new URLSearchParams(query).toString() } : {}),
    };
  };
}

/** BatchWrite, 25 at a time, a few calls in flight. */
async function writeAll(doc: DynamoDBDocumentClient, items: readonly Record<string, unknown>[]): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      let pending = chunks[next++]!.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const out = await doc.send(new BatchWriteCommand({ RequestItems: { [LOCAL_TABLE]: pending } }));
        pending = (out.UnprocessedItems?.[LOCAL_TABLE] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** Flat: the same reads at both sizes; or, for a screen with a bound, within it at both. */
function bounded(screen: string, small: number, large: number): string {
  const max = SCREENS.find((s) => s.name === screen)?.maxItems;
  if (max === undefined) return verdict(small === large);
  return `${verdict(small <= max && large <= max)} (≤ ${max})`;
}

export function ownerTable(rows: readonly OwnerRow[]): string {
  const [small, large] = OWNER_SIZES;
  const screens = [...new Set(rows.map((r) => r.screen))];
  const at = (screen: string, jobs: number) => rows.find((r) => r.screen === screen && r.jobs === jobs)!;
  const table = markdownTable(
    [
      { title: 'Owner dashboard' },
      { title: `Items read, ${small.toLocaleString('en-US')} jobs`, align: 'right' },
      { title: `Items read, ${large.toLocaleString('en-US')} jobs`, align: 'right' },
      { title: `Time, ${small.toLocaleString('en-US')}`, align: 'right' },
      { title: `Time, ${large.toLocaleString('en-US')}`, align: 'right' },
      { title: 'Time ratio', align: 'right' },
      { title: 'Target: reads flat (or bounded by the range)' },
    ],
    screens.map((screen) => {
      const a = at(screen, small);
      const b = at(screen, large);
      return [
        screen,
        a.items.toLocaleString('en-US'),
        b.items.toLocaleString('en-US'),
        ms(a.ms),
        ms(b.ms),
        `${(b.ms / a.ms).toFixed(2)}×`,
        screen === BEFORE ? '— (reference)' : bounded(screen, a.items, b.items),
      ];
    }),
  );
  return [
    table,
    '',
    `The calls each screen makes at once, through the handlers against one in-memory dynalite, median of ${RUNS} rounds; items read from the answers ` +
      '(ScannedCount, GetItem, BatchGet). The jobs were seeded over the last 365 days with BatchWrite, with the stats items their changes move.',
  ].join('\n');
}
