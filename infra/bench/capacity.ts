import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { approvedPro, arriveAtJob, bringOnCall, ownerCookie, type Pro } from '../../web/e2e/people';
import { capacityMeter, type MeterSnapshot } from '../local/dynamo-meter';
import { startLocalStack } from '../local/stack';
import { LOCATION_INTERVAL_MS } from '../../shared/realtime';
import { capacityTables, isOwnPartition, perBooking, SAFE_SHARE, type PerBooking } from './capacity-model';

/**
 * `BENCH_ONLY=capacity`: bookings through their whole life on the local stack (in this process,
 * loopback only), all at once: each customer books, a pro accepts the offer, shares fixes on the
 * way over /ws while the customer follows, proves arrival, works and completes; the customer
 * approves the work, the pro invoices, the customer pays on the local Stripe and rates. The
 * DynamoDB meter (infra/local/dynamo-meter.ts) counts every unit as DynamoDB would bill it, by
 * partition; the fixes are metered apart and scaled to a booking's count of them.
 */
export const CAPACITY_BOOKINGS = Number(process.env.CAPACITY_BOOKINGS ?? 12);
/** Fixes each pro sends in the run (at the interval the server keeps them). */
const FIXES_SENT_EACH = 5;
/** A booking's fixes: one per interval for 30 minutes on the way and at the door. */
export const FIXES_PER_BOOKING = (30 * 60 * 1000) / LOCATION_INTERVAL_MS;
/** The browser journeys' places (web/e2e/journey.ts, which needs vitest): the customer, and pros a few blocks away. */
const HOME = { latitude: 37.7793, longitude: -122.4193 };
export const NEAR = { latitude: 37.7812, longitude: -122.4158 };

export interface CapacityRun {
  model: PerBooking;
  tables: ReturnType<typeof capacityTables>;
  /** Transactions that met another write on a partition many bookings share (a counter, an index): in DynamoDB, conflicts. */
  sharedContention: Record<string, number>;
  bookings: number;
  seconds: number;
}

export interface Customer {
  cookie: string;
  jobId: string;
}

const log = (message: string) => console.error(`bench capacity: ${message}`);

export async function measureCapacity(bookings = CAPACITY_BOOKINGS): Promise<CapacityRun> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-capacity-'));
  const meter = capacityMeter();
  // Every pro and customer here comes from one loopback address, which the creation limits would
  // count as one person applying and booking again and again.
  process.env.CREATION_LIMIT_SCALE ??= '1000';
  const stack = await startLocalStack({ port: 0, dataDir, web: false, meter });
  const started = performance.now();
  try {
    const base = stack.url;
    const counts = { httpCalls: 0 };
    const api = counted(base, counts);
    // The request form's service and the category pros of it are approved in.
    const [service, slug] = ['Plumbing', 'plumbing'];
    const owner = await ownerCookie({ url: base, setupCode: stack.ownerSetup?.code });
    log(`approving ${bookings} pros`);
    const pros: Pro[] = [];
    for (let i = 0; i < bookings; i++) pros.push(await approvedPro(base, owner, `Capacity Pro ${i}`, [slug]));
    await Promise.all(pros.map((pro) => bringOnCall(base, pro, NEAR)));
    await settle();
    meter.reset();
    counts.httpCalls = 0;

    log(`${bookings} bookings at once`);
    const customers = await Promise.all(Array.from({ length: bookings }, (_, i) => book(api, i, service)));
    const held = await acceptAll(api, pros, customers);
    for (const { pro, customer } of held) await api('POST', `/api/jobs/${customer.jobId}/state`, { state: 'en_route' }, { authorization: `Bearer ${pro.token}` });

    // The fixes on the way, metered apart from the sockets' opening and closing.
    let beforeFixes = meter.snapshot();
    let fixes = beforeFixes;
    const frames = await shareFixes(base, held, {
      opened: async () => {
        await settle();
        beforeFixes = meter.snapshot();
        meter.reset();
      },
      sent: async () => {
        await settle();
        fixes = meter.snapshot();
        meter.reset();
      },
    });
    log(`${frames.fixesSent} fixes sent, ${frames.in} frames in and ${frames.out} out`);

    for (const { pro, customer } of held) {
      const arrived = await arriveAtJob(base, pro, customer.jobId);
      counts.httpCalls += 3;
      if (arrived.state !== 'arrived') throw new Error(`arrival not recorded: ${arrived.arrivalClaim?.message ?? arrived.state}`);
    }
    await Promise.all(held.map((h) => finish(api, h)));
    await settle();
    const lifecycle = sum(beforeFixes, meter.snapshot());

    const model = perBooking(lifecycle, fixes, {
      bookings: held.length,
      fixesSent: frames.fixesSent,
      fixesPerBooking: FIXES_PER_BOOKING,
      httpCalls: counts.httpCalls,
      framesIn: 0,
      framesOut: 0,
      fixFramesIn: frames.in,
      fixFramesOut: frames.out,
      // The pro's and the customer's sockets, open while the fixes are shared.
      connectionMinutes: 2 * ((FIXES_PER_BOOKING * LOCATION_INTERVAL_MS) / 60_000),
      otherRuns: (lifecycle.created.tally ?? 0) + (lifecycle.created['outbound-mail'] ?? 0) + (lifecycle.created.notification ?? 0),
    });
    if (process.env.CAPACITY_DEBUG) {
      for (const [name, snap] of [['lifecycle', lifecycle], ['fixes', fixes]] as const) {
        const top = Object.entries(snap.partitions).sort((x, y) => y[1].writeUnits - x[1].writeUnits).slice(0, 40);
        log(`${name}: ${JSON.stringify({ ...snap, partitions: Object.fromEntries(top) }, null, 1)}`);
      }
    }
    const sharedContention = Object.fromEntries(
      Object.entries({ ...lifecycle.contention }).filter(([partition]) => !isOwnPartition(partition)),
    );
    return { model, tables: capacityTables(model), sharedContention, bookings: held.length, seconds: (performance.now() - started) / 1000 };
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export type Api = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: unknown; res: Response }>;

export function counted(base: string, counts: { httpCalls: number }): Api {
  return async (method, url, body, headers = {}) => {
    counts.httpCalls++;
    const res = await fetch(`${base}${url}`, {
      method,
      // As the site's own pages send them: some calls (checkout) refuse another origin.
      headers: { origin: base.replace('127.0.0.1', 'localhost'), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, res };
  };
}

export async function book(api: Api, i: number, service: string): Promise<Customer> {
  // One key per submission, as the form sends it: a retry after a 503 is the same request.
  const idempotencyKey = randomUUID();
  const send = () => api('POST', '/api/requests', {
    name: `Capacity Customer ${i}`,
    email: `capacity-${i}@example.com`,
    phoneNumber: '5550101234',
    service,
    description: 'A dripping kitchen tap',
    location: '1 Dr Carlton B Goodlett Pl, San Francisco',
    clientLatitude: HOME.latitude,
    clientLongitude: HOME.longitude,
    gpsEnabled: true,
  }, { 'idempotency-key': idempotencyKey });
  let answer = await send();
  // 503 is the API's "come back in a few seconds" (with Retry-After), as a person presses Send again.
  for (let tries = 1; answer.status === 503 && tries < 4; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(answer.res.headers.get('retry-after') ?? 1)));
    answer = await send();
  }
  const { status, body, res } = answer;
  if (status !== 201) throw new Error(`booking ${i} answered ${status}: ${JSON.stringify(body)}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return { cookie, jobId: (body as { request: { id: string } }).request.id };
}

/**
 * Every free pro takes an offer until each booking is held or every pro holds one (two pros may race
 * for one booking: one wins). A pro who holds a job declines the offers still open to them, as the
 * app's busy pro does, so dispatch offers those bookings to the next pros rather than waiting for
 * the offers to expire.
 */
export async function acceptAll(api: Api, pros: Pro[], customers: Customer[]): Promise<{ pro: Pro; customer: Customer }[]> {
  const held: { pro: Pro; customer: Customer }[] = [];
  const open = new Map(customers.map((c) => [c.jobId, c]));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const free = pros.filter((p) => !held.some((h) => h.pro === p));
    if (!open.size || !free.length || Date.now() > deadline) break;
    await Promise.all(
      pros.map(async (pro) => {
        const auth = { authorization: `Bearer ${pro.token}` };
        const offers = (await api('GET', `/api/jobs/offers/${pro.id}`, undefined, auth)).body as { id: string }[];
        for (const { id: jobId } of offers) {
          const customer = open.get(jobId);
          if (!customer) continue;
          if (held.some((h) => h.pro === pro)) {
            await api('POST', `/api/jobs/decline/${jobId}`, {}, auth);
            continue;
          }
          const { status } = await api('POST', `/api/jobs/accept/${jobId}`, {}, auth);
          if (status === 200 && open.delete(jobId)) held.push({ pro, customer });
        }
      }),
    );
    if (open.size) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (open.size && held.length < pros.length) throw new Error(`${open.size} booking(s) were never accepted`);
  return held;
}

/** Each pro shares FIXES_SENT_EACH fixes over /ws at the kept interval, each customer following on theirs. */
async function shareFixes(
  base: string,
  held: { pro: Pro; customer: Customer }[],
  phases: { opened(): Promise<void>; sent(): Promise<void> },
): Promise<{ fixesSent: number; in: number; out: number }> {
  const url = `${base.replace('http://', 'ws://')}/ws`;
  const origin = base.replace('127.0.0.1', 'localhost');
  const frames = { fixesSent: 0, in: 0, out: 0 };
  const sockets: WebSocket[] = [];
  const open = (protocols: string[], headers: Record<string, string>) =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(url, protocols, { headers: { origin, ...headers } });
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`socket refused ${res.statusCode}`)));
      socket.once('error', reject);
      socket.on('message', () => frames.out++);
      sockets.push(socket);
    });
  try {
    const pairs = await Promise.all(
      held.map(async ({ pro, customer }) => ({ pro: await open(['fixly.v1', `token.${pro.token}`], {}), customer: await open(['fixly.v1'], { cookie: customer.cookie }), jobId: customer.jobId })),
    );
    await phases.opened();
    frames.out = 0;
    for (let n = 0; n < FIXES_SENT_EACH; n++) {
      for (const { pro, jobId } of pairs) {
        pro.send(JSON.stringify({ event: 'worker:loc', data: { jobId, lat: NEAR.latitude - n * 0.0003, lng: NEAR.longitude, accuracy: 10 } }));
        frames.fixesSent++;
        frames.in++;
      }
      // Past the interval, so every fix is one the server keeps.
      await new Promise((resolve) => setTimeout(resolve, LOCATION_INTERVAL_MS + 200));
    }
    await phases.sent();
  } finally {
    for (const socket of sockets) socket.close();
  }
  return frames;
}

/** Work, completion, the customer's approval, the invoice, payment on the local Stripe, the rating. */
async function finish(api: Api, { pro, customer }: { pro: Pro; customer: Customer }): Promise<void> {
  const auth = { authorization: `Bearer ${pro.token}` };
  const asCustomer = { cookie: customer.cookie };
  const expect = async (step: string, call: Promise<{ status: number; body: unknown }>) => {
    const { status, body } = await call;
    if (status >= 300) throw new Error(`${step} answered ${status}: ${JSON.stringify(body)}`);
    return body;
  };
  await expect('start', api('POST', `/api/jobs/${customer.jobId}/state`, { state: 'in_progress' }, auth));
  await expect('complete', api('POST', `/api/jobs/${customer.jobId}/complete`, {}, auth));
  await expect(
    'approve the work',
    api('POST', '/api/client-verification', { serviceRequestId: customer.jobId, verificationType: 'work_verification', verificationStatus: 'approved' }, asCustomer),
  );
  const invoice = (await expect('invoice', api('POST', `/api/jobs/${customer.jobId}/invoice`, { laborHours: 1.5, materialsCost: 12.5 }, auth))) as { id: string };
  const session = (await expect('checkout', api('POST', '/api/create-checkout-session', { invoiceId: invoice.id, jobId: customer.jobId }, asCustomer))) as { url?: string; sessionId?: string };
  if (!session.url) throw new Error('checkout gave no hosted page');
  const paid = await fetch(`${session.url}/pay`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  if (paid.status >= 400) throw new Error(`paying answered ${paid.status}`);
  await expect('rate', api('POST', `/api/jobs/${customer.jobId}/rating`, { rating: 5, comment: 'Quick and tidy.' }, asCustomer));
}

/** Waits for what the stream and the mail still do, so it is metered with the run it belongs to. */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1500));
}

function sum(a: MeterSnapshot, b: MeterSnapshot): MeterSnapshot {
  const out = structuredClone(a);
  out.writeUnits += b.writeUnits;
  out.readUnits += b.readUnits;
  out.writes += b.writes;
  out.reads += b.reads;
  out.refusedWrites += b.refusedWrites;
  for (const [k, v] of Object.entries(b.created)) out.created[k] = (out.created[k] ?? 0) + v;
  for (const [k, v] of Object.entries(b.contention)) out.contention[k] = (out.contention[k] ?? 0) + v;
  for (const [k, v] of Object.entries(b.partitions)) {
    const p = (out.partitions[k] ??= { writeUnits: 0, readUnits: 0 });
    p.writeUnits += v.writeUnits;
    p.readUnits += v.readUnits;
  }
  return out;
}

/** The verdict the bench prints: no shared partition above half its limit at any scale. */
export function capacityVerdict(run: CapacityRun): boolean {
  return run.tables.worstShare <= SAFE_SHARE && Object.keys(run.sharedContention).length === 0;
}
