import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { recurring, routes, streamConsumers, timers } from '../../shared/routes';
import { bundle, contributions, sdkClientPackages, type Bundle } from './lambda';
import { buildReference, clientSetKey, type Reference } from './references';
import { kb, markdownTable, ms, replaceBetweenMarkers, verdict } from './report';
import { measureInterleaved, median, type Target } from './timing';
import { measureDispatch, type DispatchRow } from './dispatch';
import { measureOwnerDashboard, OWNER_SIZES, ownerTable } from './owner';
import { fanoutTable, MODELLED_LATENCY_MS, runFanout } from './fanout';
import { LOAD_CONNECTIONS, LOAD_SECONDS, loadTable, measureLoad } from './load';
import { lighthouseTable, measureLighthouse } from './lighthouse';
import { HASH_PROCESSES, measurePasswordHashing, passwordHashTable } from './password-hash';
import { measureStart, startTable } from './start';
import { buildWeb, measureRouteLoads, requireWebConfig, routeLoadTable } from './web';
import { functionFile } from '../../shared/function-files';
import { capacityVerdict, measureCapacity, type CapacityRun } from './capacity';

/**
 * `npm run bench`: bundle sizes and cold import times of every function against the AWS SDK
 * clients it uses, and the initial JavaScript of the web app. A measurement, not a test: it
 * exits 0 when a target is missed and says OVER instead.
 *
 *   BENCH_RUNS=51         cold imports per target (default 31: the machine is shared, and the median of fewer moves by ±0.15 in the ratio)
 *   BENCH_WEB_CONFIG=...  another Vite config (default web/vite.config.ts)
 *   BENCH_ONLY=dispatch   only the dispatch comparison (a job for now and one scheduled for later, each against its scan)
 *   BENCH_ONLY=owner      only the owner dashboard's calls at 1,000 and at 100,000 jobs (items read and time)
 *   BENCH_ONLY=fanout     only the /ws fan-out comparison (publish() against one connection at a time)
 *   BENCH_ONLY=load       only the load run (a burst of new customers booking at once, then LOAD_SECONDS=120 of mixed traffic by default)
 *   BENCH_ONLY=functions  only the functions' cold imports against their references
 *   BENCH_ONLY=passwords  only one password hash from the login functions' bundle, cold and warm, against a SHA-256 reference
 *   BENCH_ONLY=web        only the web app: initial JavaScript per route and Lighthouse on LIGHTHOUSE_ROUTES
 *   BENCH_ONLY=bundles    only the web app's initial JavaScript per route (seconds, not the minutes Lighthouse takes; the bench README untouched)
 *   BENCH_ONLY=start      only npm start (production build) against npm run dev (Vite): first page answered, then a usable screen
 *   BENCH_ONLY=capacity   only the capacity and cost model (CAPACITY_BOOKINGS=12 bookings through their whole life at once)
 *
 * The web figures are also written into infra/bench/README.md, between its `bench:web` markers, and
 * the capacity and cost model between its `bench:capacity` markers.
 */
const MIN_DISPATCH_SPEEDUP = 20;
const DISPATCH_SIZES = [2_500, 10_000] as const;
const DISPATCH_RUNS = 9;
const MAX_IMPORT_RATIO = 1.25;
/** The public pages with Lighthouse targets (infra/bench/README.md); /track is measured with a booking's id. */
const LIGHTHOUSE_ROUTES = ['/', '/services', '/book', '/track'] as const;
const LIGHTHOUSE_RUNS = 3;
const START_RUNS = 3;

const root = path.resolve(import.meta.dirname, '../..');
const outDir = path.join(root, '.bench');
const runs = runsFromEnv(process.env.BENCH_RUNS);
const webConfig = path.resolve(root, process.env.BENCH_WEB_CONFIG ?? 'web/vite.config.ts');

function runsFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return 31;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`BENCH_RUNS must be a positive integer, not "${value}"`);
  return n;
}

const log = (message: string) => console.error(`bench: ${message}`);

interface FunctionBuild {
  name: string;
  bundle: Bundle;
  refKey: string;
}

async function buildFunctions(): Promise<FunctionBuild[]> {
  return Promise.all(
    [...routes, ...timers, ...streamConsumers, ...recurring].map(async ({ name }) => {
      const built = await bundle(root, functionFile(name), path.join(outDir, 'fn', name, 'index.mjs'));
      return { name, bundle: built, refKey: clientSetKey(sdkClientPackages(built.metafile)) };
    }),
  );
}

/** One reference per distinct client set: functions sharing clients share the baseline. */
async function buildReferences(fns: FunctionBuild[]): Promise<Map<string, Reference>> {
  const sets = new Map(fns.map((f) => [f.refKey, sdkClientPackages(f.bundle.metafile)]));
  const refs = await Promise.all([...sets.values()].map((pkgs) => buildReference(root, path.join(outDir, 'ref'), pkgs)));
  return new Map(refs.map((r) => [r.key, r]));
}

function timingTargets(fns: FunctionBuild[], refs: Map<string, Reference>): Target[] {
  return [
    ...fns.map((f) => ({ id: `fn:${f.name}`, file: f.bundle.file })),
    ...[...refs.values()].flatMap((r) => [
      { id: `sdk:${r.key}`, file: r.bundled.file },
      { id: `raw:${r.key}`, file: r.unbundledFile },
    ]),
  ];
}

function functionTable(fns: FunctionBuild[], refs: Map<string, Reference>, medians: Map<string, number>): string {
  const rows = fns.map((f) => {
    const ref = refs.get(f.refKey)!;
    const fnMs = medians.get(`fn:${f.name}`)!;
    const sdkMs = medians.get(`sdk:${f.refKey}`)!;
    const ratio = fnMs / sdkMs;
    const usesSdk = ref.packages.length > 0;
    const clients = usesSdk ? f.refKey : 'none: empty module †';
    return [
      f.name,
      kb(f.bundle.bytes),
      clients,
      kb(ref.bundled.bytes),
      ms(fnMs),
      ms(sdkMs),
      ms(medians.get(`raw:${f.refKey}`)!),
      `${ratio.toFixed(2)}×`,
      // The target is a bound on what a function adds to its SDK clients; with none, there is no bound.
      usesSdk ? verdict(ratio <= MAX_IMPORT_RATIO) : 'n/a †',
    ];
  });
  return markdownTable(
    [
      { title: 'Function' },
      { title: 'Bundle', align: 'right' },
      { title: 'SDK clients (baseline)' },
      { title: 'SDK-only bundle', align: 'right' },
      { title: 'Cold import', align: 'right' },
      { title: 'SDK-only import', align: 'right' },
      { title: 'Unbundled SDK import', align: 'right' },
      { title: 'Ratio', align: 'right' },
      { title: `≤ ${MAX_IMPORT_RATIO}×` },
    ],
    rows,
  );
}

/**
 * For a function over its target, what its bundle holds beyond its SDK-only baseline, largest
 * first: that is where the extra import time comes from.
 */
function overNotes(fns: FunctionBuild[], refs: Map<string, Reference>, medians: Map<string, number>): string[] {
  return fns
    .filter((f) => refs.get(f.refKey)!.packages.length > 0)
    .filter((f) => medians.get(`fn:${f.name}`)! / medians.get(`sdk:${f.refKey}`)! > MAX_IMPORT_RATIO)
    .map((f) => {
      const baseline = new Map(contributions(refs.get(f.refKey)!.bundled.metafile).map((c) => [c.name, c.bytes]));
      const extra = contributions(f.bundle.metafile)
        .map((c) => ({ name: c.name, bytes: c.bytes - (baseline.get(c.name) ?? 0) }))
        .filter((c) => c.bytes >= 1024)
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 4);
      return `- ${f.name}: over; beyond the baseline its bundle adds ${extra.map((c) => `${c.name} ${kb(c.bytes)}`).join(', ')}.`;
    });
}

function summary(fns: FunctionBuild[], refs: Map<string, Reference>, medians: Map<string, number>, web: string): string {
  const noSdk = fns.some((f) => !refs.get(f.refKey)!.packages.length);
  return [
    `### Performance (\`npm run bench\`, ${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
    '',
    functionTable(fns, refs, medians),
    '',
    `Cold import: median of ${runs} imports of the minified bundle, each in a fresh Node process, timed inside it ` +
      `(process start-up excluded), all targets interleaved. Ratio = function ÷ SDK-only bundle, the same clients ` +
      `constructed once and bundled the same way; "unbundled" loads those clients from node_modules.`,
    ...(noSdk
      ? [
          '† Uses no AWS SDK client, so the 1.25× target (against its SDK-only reference) does not apply; it is ' +
            'shown against an empty module, i.e. its whole cold-import cost over bare Node.',
        ]
      : []),
    ...overNotes(fns, refs, medians),
    '',
    web,
  ].join('\n');
}

function dispatchTable(rows: DispatchRow[]): string {
  const table = markdownTable(
    [
      { title: 'Dispatch: one job among' },
      { title: 'Geohash index', align: 'right' },
      { title: 'Scan and filter', align: 'right' },
      { title: 'Speed-up', align: 'right' },
      { title: 'Items read (index / scan)', align: 'right' },
      { title: 'Same 3 workers' },
      { title: `Target ≥${MIN_DISPATCH_SPEEDUP}× at ${Math.max(...DISPATCH_SIZES).toLocaleString('en-US')}` },
    ],
    rows.map((r) => [
      `${r.workers.toLocaleString('en-US')} workers${r.job === 'scheduled' ? ', job scheduled for later' : ''}`,
      ms(r.indexMs),
      ms(r.scanMs),
      `${(r.scanMs / r.indexMs).toFixed(1)}×`,
      `${r.indexItems} / ${r.scanItems.toLocaleString('en-US')}`,
      r.sameWorkers ? 'yes' : '**no**',
      // The target is set at the larger city; the smaller one shows that reads do not grow with it.
      r.workers === Math.max(...rows.filter((x) => x.job === r.job).map((x) => x.workers)) ? verdict(r.scanMs / r.indexMs >= MIN_DISPATCH_SPEEDUP) : '—',
    ]),
  );
  return [
    table,
    '',
    `Matching the 3 nearest free workers of a category for a job in a ${'30 km'} city, median of ${DISPATCH_RUNS} jobs at ` +
      'random places, the two methods alternating, against one in-memory dynalite in this process. Items read: ' +
      'ScannedCount of every Query/Scan plus the profiles BatchGet returns, for the last job. A job scheduled for later ' +
      'is matched among the schedulable pros (the `later:` index entries; the scan filters by the same rule: a contract ' +
      'worker, clocked in or not, or a pro on call); about 30% of the city are contract workers, 80% on call, 70% of ' +
      'those on the clock.',
  ].join('\n');
}

/**
 * The web figures: the production build's initial JavaScript per route, then Lighthouse on it.
 * Also written into infra/bench/README.md, whose web part is only ever this text.
 */
async function measureBundles(webOut: string): Promise<string> {
  log('building the web app');
  const webRoot = path.dirname(webConfig);
  await buildWeb(webConfig, webOut);
  return routeLoadTable(await measureRouteLoads(webRoot, path.join(webRoot, 'src/app/routes.tsx'), webOut));
}

async function measureWeb(): Promise<string> {
  const webOut = path.join(outDir, 'web');
  const bundles = await measureBundles(webOut);
  log(`lighthouse: ${LIGHTHOUSE_ROUTES.join(', ')} × ${LIGHTHOUSE_RUNS} runs against the production build`);
  const lighthouse = await measureLighthouse(webOut, LIGHTHOUSE_ROUTES, LIGHTHOUSE_RUNS, log);
  const text = `${bundles}\n\n${lighthouseTable(lighthouse, LIGHTHOUSE_RUNS)}`;
  const readme = path.join(root, 'infra/bench/README.md');
  writeFileSync(readme, replaceBetweenMarkers(readFileSync(readme, 'utf8'), 'bench:web', text));
  log('web figures written into infra/bench/README.md');
  return text;
}

/** The capacity and cost model's tables, also written into infra/bench/README.md. */
async function measureCapacityText(): Promise<string> {
  log('capacity: bookings through their whole life on the local stack, the table metered as DynamoDB bills it');
  const run = await measureCapacity();
  const text = capacityText(run);
  // The bench's README and the runbook's cost section show the same run.
  for (const file of ['infra/bench/README.md', 'infra/RUNBOOK.md']) {
    const at = path.join(root, file);
    writeFileSync(at, replaceBetweenMarkers(readFileSync(at, 'utf8'), 'bench:capacity', text));
  }
  log('capacity figures written into infra/bench/README.md and infra/RUNBOOK.md');
  return text;
}

function capacityText(run: CapacityRun): string {
  const contention = Object.entries(run.sharedContention);
  return [
    `${run.bookings} bookings at once, whole life, in ${run.seconds.toFixed(0)} s; fixes scaled to a booking's 900.`,
    '',
    run.tables.perBooking,
    '',
    run.tables.partitions,
    '',
    run.tables.cost,
    '',
    `Cost per 1,000 bookings (usage lines): $${run.tables.costPerThousand.toFixed(2)}. ` +
      `Transactions meeting another write on a shared partition: ${contention.length ? contention.map(([p, n]) => `${p} ×${n}`).join(', ') : 'none'}. ` +
      `Verdict: ${verdict(capacityVerdict(run))} (no shared partition above half its limit at 100x or in the burst, no conflict on one).`,
  ].join('\n');
}

async function main(): Promise<void> {
  if (process.env.BENCH_ONLY === 'capacity') {
    console.log(`\n${await measureCapacityText()}\n`);
    return;
  }
  if (process.env.BENCH_ONLY === 'dispatch') {
    log(`dispatch: seeding ${DISPATCH_SIZES.join(' then ')} workers`);
    console.log(`\n${dispatchTable(await measureDispatch(DISPATCH_SIZES, DISPATCH_RUNS))}\n`);
    return;
  }
  if (process.env.BENCH_ONLY === 'owner') {
    console.log(`\n${ownerTable(await measureOwnerDashboard(log))}\n`);
    return;
  }
  if (process.env.BENCH_ONLY === 'fanout') {
    log('fan-out: on loopback, then with a modelled @connections round trip');
    console.log(`\n${fanoutTable(await runFanout(), await runFanout(MODELLED_LATENCY_MS))}\n`);
    return;
  }
  if (process.env.BENCH_ONLY === 'load') {
    log(`load: ${LOAD_CONNECTIONS} connections for ${LOAD_SECONDS} s against the local stack, then the read mix against a bare server`);
    console.log(`\n${loadTable(await measureLoad())}\n`);
    return;
  }
  if (process.env.BENCH_ONLY === 'passwords') {
    log(`password hashing: ${HASH_PROCESSES} fresh processes, each a cold verify then warm ones, beside a SHA-256 reference`);
    console.log(`\n${passwordHashTable(await measurePasswordHashing(root, path.join(outDir, 'passwords')))}\n`);
    return;
  }
  if (process.env.BENCH_ONLY === 'start') {
    log(`start: npm start against npm run dev, ${START_RUNS} starts of each, interleaved`);
    console.log(`\n${startTable(await measureStart(START_RUNS, log))}\n`);
    return;
  }
  if (process.env.BENCH_ONLY === 'bundles') {
    requireWebConfig(webConfig);
    console.log(`\n${await measureBundles(path.join(outDir, 'web'))}\n`);
    return;
  }
  if (process.env.BENCH_ONLY === 'web') {
    requireWebConfig(webConfig);
    const web = await measureWeb();
    mkdirSync(outDir, { recursive: true });
    writeFileSync(path.join(outDir, 'web.md'), `${web}\n`);
    console.log(`\n${web}\n`);
    return;
  }
  // Checked first: a missing config should not cost a full minute of measuring before failing.
  if (process.env.BENCH_ONLY !== 'functions') requireWebConfig(webConfig);
  rmSync(path.join(outDir, 'fn'), { recursive: true, force: true });
  rmSync(path.join(outDir, 'ref'), { recursive: true, force: true });

  log(`bundling ${routes.length} functions and their SDK-only references`);
  const fns = await buildFunctions();
  const refs = await buildReferences(fns);

  const targets = timingTargets(fns, refs);
  log(`timing ${targets.length} cold imports × ${runs} runs (+1 warm-up round), interleaved`);
  // Progress on one rewritten line; in a log file it would only be noise.
  const progress = process.stderr.isTTY ? (done: number) => process.stderr.write(`\rbench: round ${done}/${runs}`) : undefined;
  const samples = measureInterleaved(targets, runs, progress);
  if (progress) process.stderr.write('\n');
  const medians = new Map([...samples].map(([id, values]) => [id, median(values)]));
  if (process.env.BENCH_ONLY === 'functions') {
    console.log(`\n${functionTable(fns, refs, medians)}\n`);
    return;
  }

  // After the timings, so the build's CPU use and Chromium cannot disturb them.
  const web = await measureWeb();

  log(`dispatch: seeding ${DISPATCH_SIZES.join(' then ')} workers`);
  const dispatch = await measureDispatch(DISPATCH_SIZES, DISPATCH_RUNS);

  log(`owner dashboard: ${OWNER_SIZES.join(' then ')} jobs`);
  const owner = ownerTable(await measureOwnerDashboard(log));

  log('fan-out: on loopback, then with a modelled @connections round trip');
  const fanout = fanoutTable(await runFanout(), await runFanout(MODELLED_LATENCY_MS));

  log(`load: ${LOAD_CONNECTIONS} connections for ${LOAD_SECONDS} s against the local stack, then the read mix against a bare server`);
  const load = loadTable(await measureLoad());

  log(`password hashing: ${HASH_PROCESSES} fresh processes, each a cold verify then warm ones, beside a SHA-256 reference`);
  const passwords = passwordHashTable(await measurePasswordHashing(root, path.join(outDir, 'passwords')));

  log(`start: npm start against npm run dev, ${START_RUNS} starts of each, interleaved`);
  const start = startTable(await measureStart(START_RUNS, log));

  const capacity = await measureCapacityText();

  const text = `${summary(fns, refs, medians, web)}\n\n${dispatchTable(dispatch)}\n\n${owner}\n\n${fanout}\n\n${load}\n\n${passwords}\n\n${start}\n\n${capacity}`;
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'results.md'), `${text}\n`);
  console.log(`\n${text}\n`);
  log(`written to ${path.relative(root, path.join(outDir, 'results.md'))}`);
}

try {
  await main();
} catch (error) {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
