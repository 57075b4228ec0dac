import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { staticSite } from '../local/static-site';
import { browserEnv, resolveChromium } from '../testing/chromium';
import { startStackProcess } from '../testing/local-process';
import { markdownTable, verdict } from './report';
import { median } from './timing';

const lighthouseVersion = (
  JSON.parse(readFileSync(createRequire(import.meta.url).resolve('lighthouse/package.json'), 'utf8')) as { version: string }
).version;

/** The figures the bench keeps from one Lighthouse run (performance category, default mobile settings). */
export interface LighthouseFigures {
  /** 0–100 */
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's measure of this machine's speed at the time (a typical 2020s desktop is 1000–2000). */
  benchmarkIndex: number;
}

export interface LighthouseRow {
  route: string;
  /** Per-metric medians of the runs (each metric on its own, as a median run would hide a noisy one). */
  median: LighthouseFigures;
  runs: LighthouseFigures[];
}

/** The Chromium flags of this closed network; the resolver rule keeps every page load on loopback. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/** The part of a Lighthouse result the bench reads. */
export interface LighthouseResultLike {
  categories: { performance?: { score: number | null } };
  audits: Record<string, { numericValue?: number } | undefined>;
  runtimeError?: { code: string; message: string };
  environment?: { benchmarkIndex?: number };
}

export function figuresOf(lhr: LighthouseResultLike): LighthouseFigures {
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  const score = lhr.categories.performance?.score;
  const metric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`Lighthouse reported no ${id}`);
    return value;
  };
  if (score === null || score === undefined) throw new Error('Lighthouse reported no performance score');
  return {
    score: Math.round(score * 100),
    lcpMs: metric('largest-contentful-paint'),
    tbtMs: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
  };
}

export function medianFigures(runs: readonly LighthouseFigures[]): LighthouseFigures {
  if (!runs.length) throw new Error('No Lighthouse runs to take a median of');
  const of = (key: keyof LighthouseFigures) => median(runs.map((r) => r[key]));
  return { score: of('score'), lcpMs: of('lcpMs'), tbtMs: of('tbtMs'), cls: of('cls'), benchmarkIndex: of('benchmarkIndex') };
}

/**
 * The production build as CloudFront serves it, on loopback: compressed text, hashed assets
 * cached for good, the SPA fallback, and /api and /ws passed to the local stack.
 */
export async function serveBuild(distDir: string, apiUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const api = new URL(apiUrl);
  const site = staticSite(distDir);
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/api/')) {
      const upstream = request(
        { host: api.hostname, port: api.port, method: req.method, path: url, headers: { ...req.headers, host: api.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
      return;
    }
    site(req, res);
  });
  // The realtime socket: the upgrade request is replayed to the stack and the two sockets joined.
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const upstream = connect(Number(api.port), api.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    const end = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', end);
    socket.on('error', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A booking made through the API as the book page makes it, so /track has one to show. */
async function createBooking(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Dana Whitfield',
      phone: '(415) 555-0142',
      address: '742 Evergreen Terrace, Springfield',
      category: 'plumbing',
      details: 'Kitchen sink drains slowly.',
    }),
  });
  if (res.status !== 201) throw new Error(`POST /api/bookings answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Longest one Lighthouse run may take (a page that never settles); the bench stays bounded. */
const RUN_TIMEOUT_MS = 90_000;

/**
 * Lighthouse's performance category with its default (mobile) settings on each route of the
 * production build, `runs` times, interleaved (each round visits every route once) so a burst of
 * load on this shared machine does not fall on one route only. The local stack answers the API
 * (its catalogue is seeded on start; /track gets a booking made first).
 */
export async function measureLighthouse(
  distDir: string,
  routes: readonly string[],
  runs: number,
  log: (message: string) => void,
): Promise<LighthouseRow[]> {
  if (!existsSync(path.join(distDir, 'index.html'))) throw new Error(`No production build in ${distDir}`);
  const found = await resolveChromium();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-lighthouse-'));
  const cleanups: (() => Promise<unknown> | void)[] = [() => rmSync(dataDir, { recursive: true, force: true })];
  try {
    const stack = await startStackProcess(dataDir, { GEOCODER_URL: 'http://127.0.0.1:9' });
    cleanups.unshift(() => stack.stop());
    const site = await serveBuild(distDir, stack.url);
    cleanups.unshift(() => site.close());
    const bookingId = await createBooking(site.url);
    const urlOf = (route: string) => `${site.url}${route}${route === '/track' ? `?id=${encodeURIComponent(bookingId)}` : ''}`;

    const chrome = await chromeLauncher.launch({
      chromePath: found.executablePath,
      chromeFlags: CHROMIUM_FLAGS,
      envVars: browserEnv(found),
      logLevel: 'silent',
    });
    cleanups.unshift(() => chrome.kill());
    const samples = new Map<string, LighthouseFigures[]>(routes.map((r) => [r, []]));
    for (let round = 0; round < runs; round++) {
      for (const route of routes) {
        log(`lighthouse: round ${round + 1}/${runs}, ${route}`);
        const result = await withTimeout(
          lighthouse(urlOf(route), { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] }),
          RUN_TIMEOUT_MS,
          `Lighthouse on ${route}`,
        );
        if (!result) throw new Error(`Lighthouse gave no result for ${route}`);
        samples.get(route)!.push(figuresOf(result.lhr as unknown as LighthouseResultLike));
      }
    }
    return routes.map((route) => ({ route, runs: samples.get(route)!, median: medianFigures(samples.get(route)!) }));
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

export const MIN_SCORE = 95;
export const MAX_CLS = 0.05;

export function lighthouseTable(rows: readonly LighthouseRow[], runs: number): string {
  const indexes = rows.flatMap((r) => r.runs.map((x) => x.benchmarkIndex)).filter(Number.isFinite);
  return [
    markdownTable(
      [
        { title: 'Lighthouse, mobile' },
        { title: 'Score', align: 'right' },
        { title: 'LCP', align: 'right' },
        { title: 'TBT', align: 'right' },
        { title: 'CLS', align: 'right' },
        { title: `Score ≥ ${MIN_SCORE}` },
        { title: `CLS ≤ ${MAX_CLS}` },
        { title: 'Scores of the runs' },
      ],
      rows.map((r) => [
        r.route,
        String(Math.round(r.median.score)),
        `${(r.median.lcpMs / 1000).toFixed(2)} s`,
        `${Math.round(r.median.tbtMs)} ms`,
        r.median.cls.toFixed(3),
        verdict(r.median.score >= MIN_SCORE),
        verdict(r.median.cls <= MAX_CLS),
        r.runs.map((x) => x.score).join(', '),
      ]),
    ),
    '',
    `Lighthouse ${lighthouseVersion} (performance only, its default mobile emulation and simulated throttling) on the ` +
      'production build served from loopback with gzip, its prerendered pages and the SPA fallback, the API answered by the local stack; ' +
      `/track shows a booking made through the API first. Median of ${runs} runs per route, each metric on its own, ` +
      'the routes interleaved. Lighthouse rated this machine\'s speed (benchmarkIndex) ' +
      (indexes.length ? `${Math.round(Math.min(...indexes))}–${Math.round(Math.max(...indexes))} during the runs` : 'not at all') +
      '; it does not correct for a slow machine, so TBT and LCP here are higher than on a typical desktop.',
  ].join('\n');
}
