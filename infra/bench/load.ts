import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { approvedPro, ownerCookie, type Pro } from '../../web/e2e/people';
import { localDynamoClient } from '../local/dynamo';
import { LOCAL_TABLE } from '../local/stack';
import { startStackProcess } from '../testing/local-process';
import { markdownTable, ms, verdict } from './report';
import { percentile } from './timing';

/**
 * Load on the local stack (`npm start` in its own process), loopback only and bounded in time:
 * `connections` virtual users, each sending one request after another of a mix as real users make
 * it (catalogue reads, bookings, request and booking polling, a pro's offers and jobs, the owner's
 * lists). Afterwards every booking answered 201 must be in the table, and no more bookings than
 * that. The reference is a bare node:http server (bare-server.ts) making the same DynamoDB reads
 * against the same dynalite; the read mix goes to both in alternating slices, so a burst of load on
 * this shared machine hits both alike.
 */
export const LOAD_CONNECTIONS = 50;
export const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 120);
/** New customers booking at the same moment before the mixed traffic starts. */
export const BURST_CUSTOMERS = 60;
/** Our throughput on the read mix, as a fraction of the bare server's. */
export const MIN_THROUGHPUT_RATIO = 0.6;
const SLICES = 2;

export interface Actors {
  owner: string;
  pros: Pro[];
  /** Customers (cookie header) with a booking each, to poll. */
  customers: { cookie: string; bookingId: string }[];
  slugs: string[];
}

export interface Step {
  name: string;
  weight: number;
  /** Only reads take part in the comparison with the bare server. */
  read: boolean;
  request(actors: Actors, user: number): { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; body?: unknown };
}

const at = <T>(list: T[], user: number) => list[user % list.length]!;

export const mix: Step[] = [
  { name: 'catalogue', weight: 20, read: true, request: () => ({ method: 'GET', url: '/api/services' }) },
  { name: 'service', weight: 10, read: true, request: (a, u) => ({ method: 'GET', url: `/api/services/${at(a.slugs, u)}` }) },
  {
    name: 'booking',
    weight: 8,
    read: false,
    request: (a, u) => ({
      method: 'POST',
      url: '/api/bookings',
      // As the booking form sends it: one Idempotency-Key per submission.
      headers: { cookie: at(a.customers, u).cookie, 'idempotency-key': randomUUID() },
      body: { name: 'Load Test', phone: '5550101234', address: '12 Harbour Road, Springfield', category: at(a.slugs, u) },
    }),
  },
  { name: 'booking poll', weight: 20, read: true, request: (a, u) => ({ method: 'GET', url: `/api/bookings/${at(a.customers, u).bookingId}` }) },
  { name: 'request poll', weight: 12, read: true, request: (a, u) => ({ method: 'GET', url: '/api/requests', headers: { cookie: at(a.customers, u).cookie } }) },
  {
    name: 'pro offers',
    weight: 12,
    read: true,
    request: (a, u) => ({ method: 'GET', url: `/api/jobs/offers/${at(a.pros, u).id}`, headers: { authorization: `Bearer ${at(a.pros, u).token}` } }),
  },
  {
    name: 'pro jobs',
    weight: 8,
    read: true,
    request: (a, u) => ({ method: 'GET', url: `/api/jobs/worker/${at(a.pros, u).id}`, headers: { authorization: `Bearer ${at(a.pros, u).token}` } }),
  },
  { name: 'owner jobs', weight: 5, read: true, request: (a) => ({ method: 'GET', url: '/api/admin/jobs/all', headers: { cookie: a.owner } }) },
  { name: 'owner workers', weight: 5, read: true, request: (a) => ({ method: 'GET', url: '/api/admin/workers/all', headers: { cookie: a.owner } }) },
];

/** The step a uniform draw in [0, 1) lands on, by weight. */
export function pickStep(steps: Step[], draw: number): Step {
  const total = steps.reduce((sum, s) => sum + s.weight, 0);
  let left = draw * total;
  for (const step of steps) {
    left -= step.weight;
    if (left < 0) return step;
  }
  return steps[steps.length - 1]!;
}

/** A small seeded generator, so two runs send the same sequence of requests. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Run {
  requests: number;
  seconds: number;
  latencies: number[];
  byStatus: Record<string, number>;
  errors: number;
  /** Booking ids answered 201. */
  bookings: string[];
  /** Answers of 500 and above, by step and status, e.g. "booking 500". */
  failures: Record<string, number>;
}

/** `connections` users sending the mix to `base` until `seconds` have passed. */
export async function drive(base: string, steps: Step[], actors: Actors, connections: number, seconds: number, seed: number): Promise<Run> {
  const run: Run = { requests: 0, seconds, latencies: [], byStatus: {}, errors: 0, bookings: [], failures: {} };
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, user) => {
      const random = seeded(seed + user);
      while (performance.now() < end) {
        const step = pickStep(steps, random());
        const { method, url, headers, body } = step.request(actors, user);
        const t = performance.now();
        try {
          const res = await fetch(`${base}${url}`, {
            method,
            headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
            body: body ? JSON.stringify(body) : undefined,
            signal: AbortSignal.timeout(30_000),
          });
          const text = await res.text();
          run.latencies.push(performance.now() - t);
          run.byStatus[res.status] = (run.byStatus[res.status] ?? 0) + 1;
          if (step.name === 'booking' && res.status === 201) run.bookings.push((JSON.parse(text) as { id: string }).id);
          if (res.status >= 500) run.failures[`${step.name} ${res.status}`] = (run.failures[`${step.name} ${res.status}`] ?? 0) + 1;
        } catch {
          run.errors++;
        }
        run.requests++;
      }
    }),
  );
  run.seconds = (performance.now() - started) / 1000;
  return run;
}

export interface Burst {
  customers: number;
  seconds: number;
  byStatus: Record<string, number>;
  p50: number;
  p99: number;
  /** Booking ids answered 201. */
  bookings: string[];
}

/**
 * `customers` first-time visitors (no cookie) sending the booking form at the same moment, each
 * with its own email (so each booking also queues a mail) and Idempotency-Key, as the form sends it.
 */
export async function burstOfBookings(base: string, slugs: string[], customers: number): Promise<Burst> {
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: customers }, async (_, i) => {
      const t = performance.now();
      try {
        const res = await fetch(`${base}/api/bookings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body: JSON.stringify({
            name: `Burst Customer ${i}`,
            phone: '5550101234',
            address: '12 Harbour Road, Springfield',
            category: slugs[i % slugs.length],
            email: `burst-${i}@example.com`,
          }),
          signal: AbortSignal.timeout(30_000),
        });
        const body = (await res.json().catch(() => ({}))) as { id?: string };
        return { status: String(res.status), ms: performance.now() - t, id: res.status === 201 ? body.id : undefined };
      } catch {
        return { status: 'no answer', ms: performance.now() - t, id: undefined };
      }
    }),
  );
  const byStatus: Record<string, number> = {};
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  const latencies = answers.map((a) => a.ms);
  return {
    customers,
    seconds: (performance.now() - started) / 1000,
    byStatus,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    bookings: answers.flatMap((a) => (a.id ? [a.id] : [])),
  };
}

async function prepareActors(stack: { url: string; setupCode?: string }): Promise<Actors> {
  const base = stack.url;
  const slugs = ((await (await fetch(`${base}/api/services`)).json()) as { slug: string }[]).map((s) => s.slug).slice(0, 6);
  const owner = await ownerCookie(stack);
  const pros = [await approvedPro(base, owner, 'Load Pro One', [slugs[0]!]), await approvedPro(base, owner, 'Load Pro Two', [slugs[1]!])];
  const customers: Actors['customers'] = [];
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${base}/api/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Customer ${i}`, phone: '5550101234', address: '12 Harbour Road, Springfield', category: slugs[i % slugs.length] }),
    });
    if (res.status !== 201) throw new Error(`preparing the load run: a booking answered ${res.status}`);
    const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    customers.push({ cookie, bookingId: ((await res.json()) as { id: string }).id });
  }
  return { owner, pros, customers, slugs };
}

function startBareServer(dynamoEndpoint: string): Promise<{ base: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...process.execArgv, path.join(import.meta.dirname, 'bare-server.ts')], {
    env: { ...process.env, BARE_DYNAMODB_ENDPOINT: dynamoEndpoint },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const port = /listening (\d+)/.exec(chunk.toString())?.[1];
      if (port) resolve({ base: `http://127.0.0.1:${port}`, stop });
    });
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
  });
}

/** Booking items in the table: bench-only Scan, never on a request path. */
async function storedBookingIds(dynamoEndpoint: string): Promise<string[]> {
  const client = localDynamoClient(dynamoEndpoint);
  const ids: string[] = [];
  let start: Record<string, AttributeValue> | undefined;
  do {
    const out = await client.send(
      new ScanCommand({ TableName: LOCAL_TABLE, FilterExpression: 'entity = :b', ExpressionAttributeValues: { ':b': { S: 'booking' } }, ExclusiveStartKey: start }),
    );
    for (const item of out.Items ?? []) ids.push(item.id!.S!);
    start = out.LastEvaluatedKey;
  } while (start);
  client.destroy();
  return ids;
}

export interface LoadResult {
  connections: number;
  burst: Omit<Burst, 'bookings'>;
  mixed: { seconds: number; requests: number; rps: number; p50: number; p99: number; fiveXX: number; errors: number; failures: Record<string, number> };
  bookings: { answered201: number; missing: number; extra: number };
  reads: { ours: { rps: number; p50: number; p99: number }; bare: { rps: number; p50: number; p99: number }; ratio: number };
}

const summary = (runs: Run[]) => {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const seconds = runs.reduce((n, r) => n + r.seconds, 0);
  const latencies = runs.flatMap((r) => r.latencies);
  return { requests, seconds, rps: requests / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
};

export async function measureLoad(seconds = LOAD_SECONDS, connections = LOAD_CONNECTIONS): Promise<LoadResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-load-'));
  // Hundreds of simulated people share the loopback address: the creation limits (10 jobs a minute
  // per address) would answer most bookings 429 and the run would measure refusals.
  const stack = await startStackProcess(dataDir, { CREATION_LIMIT_SCALE: '100000' });
  // The stack's log lines are not needed, except its errors, kept for the report of a 5xx.
  const errorLines: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (/"level":"error"|Error|error/.test(line) && errorLines.length < 20) errorLines.push(line.slice(0, 400));
  };
  stack.child.stdout!.on('data', keep);
  stack.child.stderr!.on('data', keep);
  let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
  try {
    const actors = await prepareActors(stack);
    const { dynamoEndpoint } = JSON.parse(readFileSync(path.join(dataDir, 'stack.json'), 'utf8')) as { dynamoEndpoint: string };
    const before = new Set(await storedBookingIds(dynamoEndpoint));

    const burst = await burstOfBookings(stack.url, actors.slugs, BURST_CUSTOMERS);
    const mixed = await drive(stack.url, mix, actors, connections, seconds, 1);
    const stored = (await storedBookingIds(dynamoEndpoint)).filter((id) => !before.has(id));
    const answered = new Set([...burst.bookings, ...mixed.bookings]);
    const storedSet = new Set(stored);

    bare = await startBareServer(dynamoEndpoint);
    const reads = mix.filter((s) => s.read);
    const slice = seconds / (2 * SLICES);
    const ours: Run[] = [];
    const theirs: Run[] = [];
    for (let i = 0; i < SLICES; i++) {
      ours.push(await drive(stack.url, reads, actors, connections, slice, 100 + i));
      theirs.push(await drive(bare.base, reads, actors, connections, slice, 100 + i));
    }
    const m = summary([mixed]);
    const o = summary(ours);
    const b = summary(theirs);
    if (errorLines.length) console.error(`load: the stack logged errors:\n${errorLines.join('\n')}`);
    const fiveXX = Object.entries(mixed.byStatus).filter(([s]) => s.startsWith('5')).reduce((n, [, c]) => n + c, 0);
    const { bookings: _ids, ...burstFigures } = burst;
    return {
      connections,
      burst: burstFigures,
      mixed: { seconds: m.seconds, requests: m.requests, rps: m.rps, p50: m.p50, p99: m.p99, fiveXX, errors: mixed.errors, failures: mixed.failures },
      bookings: {
        answered201: answered.size,
        missing: [...answered].filter((id) => !storedSet.has(id)).length,
        extra: stored.filter((id) => !answered.has(id)).length,
      },
      reads: { ours: { rps: o.rps, p50: o.p50, p99: o.p99 }, bare: { rps: b.rps, p50: b.p50, p99: b.p99 }, ratio: o.rps / b.rps },
    };
  } finally {
    await bare?.stop();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function loadTable(r: LoadResult): string {
  const nothingLost = r.bookings.missing === 0 && r.bookings.extra === 0;
  const burstFiveXX = Object.entries(r.burst.byStatus).filter(([s]) => !/^[1-4]/.test(s)).reduce((n, [, c]) => n + c, 0);
  return [
    markdownTable(
      [{ title: `Burst: ${r.burst.customers} new customers booking at once` }, { title: 'Answers', align: 'right' }, { title: 'All answered in', align: 'right' }, { title: 'p50', align: 'right' }, { title: 'p99', align: 'right' }],
      [
        [
          'bookings with an email (npm start)',
          Object.entries(r.burst.byStatus)
            .map(([s, n]) => `${s} ×${n}`)
            .join(', '),
          `${r.burst.seconds.toFixed(1)} s`,
          ms(r.burst.p50),
          ms(r.burst.p99),
        ],
      ],
    ),
    '',
    `5xx or no answer in the burst: ${burstFiveXX} (target 0): ${verdict(burstFiveXX === 0)}.`,
    '',
    markdownTable(
      [
        { title: `Load: ${r.connections} connections` },
        { title: 'Requests', align: 'right' },
        { title: 'Requests/s', align: 'right' },
        { title: 'p50', align: 'right' },
        { title: 'p99', align: 'right' },
        { title: '5xx', align: 'right' },
      ],
      [
        [`mixed traffic, ${r.mixed.seconds.toFixed(0)} s (npm start)`, String(r.mixed.requests), r.mixed.rps.toFixed(0), ms(r.mixed.p50), ms(r.mixed.p99), String(r.mixed.fiveXX)],
        ['reads only (npm start)', '', r.reads.ours.rps.toFixed(0), ms(r.reads.ours.p50), ms(r.reads.ours.p99), ''],
        ['reads only (bare node:http, same reads)', '', r.reads.bare.rps.toFixed(0), ms(r.reads.bare.p50), ms(r.reads.bare.p99), ''],
      ],
    ),
    '',
    `5xx under load: ${r.mixed.fiveXX} (target 0): ${verdict(r.mixed.fiveXX === 0 && r.mixed.errors === 0)}` +
      (r.mixed.fiveXX ? ` (${Object.entries(r.mixed.failures).map(([k, n]) => `${k} ×${n}`).join(', ')})` : '') +
      (r.mixed.errors ? ` (${r.mixed.errors} requests failed without an answer)` : '') +
      `. Bookings answered 201: ${r.bookings.answered201}; missing from the table: ${r.bookings.missing}; stored beyond them: ${r.bookings.extra}: ${verdict(nothingLost)}. ` +
      `Throughput on the read mix, ours ÷ bare: ${r.reads.ratio.toFixed(2)} (target ≥ ${MIN_THROUGHPUT_RATIO}): ${verdict(r.reads.ratio >= MIN_THROUGHPUT_RATIO)}.`,
    '',
    'The stack runs as `npm start` runs it (its own process, dynalite on disk, every request through the local API ' +
      'Gateway and the Lambda handlers); the load comes from this process over loopback. Mix by weight: ' +
      mix.map((s) => `${s.name} ${s.weight}`).join(', ') +
      '. The reference answers the read routes with the same repositories and session lookups on the same dynalite, ' +
      `with no framework; the read mix alternates between the two in ${SLICES} slices each.`,
  ].join('\n');
}
