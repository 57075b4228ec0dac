import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ensureSiteBuild } from '../local/site-build';
import { browserEnv, resolveChromium } from '../testing/chromium';
import { startStackProcess } from '../testing/local-process';
import { CHROMIUM_FLAGS } from './lighthouse';
import { markdownTable, verdict } from './report';
import { median } from './timing';

/**
 * What `npm start` (the production build) saves over `npm run dev` (Vite's dev server) for the
 * person who starts the marketplace and opens it: the time to the first page answered, and that
 * page's load in a real browser until its first screen is usable, the two measured side by side.
 */

/** `dev-first`: Vite pre-bundles the dependencies (a first `npm run dev`, or after a dependency change); `dev`: they are bundled already. */
export type StartMode = 'production' | 'dev-first' | 'dev';

export interface StartSample {
  /** Spawning the process (fresh data folder) until GET / has answered in full. */
  firstPageMs: number;
  /** Navigation in a fresh browser context (cold cache) until the first screen answers a click. */
  usableMs: number;
}

export interface StartRow {
  mode: StartMode;
  samples: StartSample[];
  firstPageMs: number;
  usableMs: number;
}

export const MIN_START_SPEEDUP = 5;

const MODES: Record<StartMode, { title: string; args: string[] }> = {
  production: { title: 'npm start (production build)', args: [] },
  'dev-first': { title: 'npm run dev, dependencies to pre-bundle', args: ['--dev'] },
  dev: { title: 'npm run dev, dependencies pre-bundled', args: ['--dev'] },
};

/** The offline geocoder of the other stack benches: nothing leaves the machine. */
const STACK_ENV = { GEOCODER_URL: 'http://127.0.0.1:9' };

async function sampleOnce(mode: StartMode, browser: Browser, viteCacheDir?: string): Promise<StartSample> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `bench-start-${mode}-`));
  const started = performance.now();
  const stack = await startStackProcess(dataDir, { ...STACK_ENV, ...(viteCacheDir ? { VITE_CACHE_DIR: viteCacheDir } : {}) }, MODES[mode].args);
  try {
    const answer = await fetch(`${stack.url}/`);
    const html = await answer.text();
    if (answer.status !== 200 || !html.includes('id="root"')) throw new Error(`GET / answered ${answer.status} without the app`);
    const firstPageMs = performance.now() - started;

    // A fresh context has an empty HTTP cache: the page as a person's first visit loads it.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
      page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`));
      const navigated = performance.now();
      try {
        // By address: the browser's resolver rule (CHROMIUM_FLAGS) keeps every load on 127.0.0.1.
        await page.goto(`${stack.url.replace('//localhost:', '//127.0.0.1:')}/`, { waitUntil: 'commit' });
        // Usable: the heading is on screen and the app answers input. A prerendered page paints
        // before its script runs, so the menu button is clicked only once React has taken it over
        // (its props are on the node), then the menu must open.
        await page.locator('h1').first().waitFor({ state: 'visible', timeout: 120_000 });
        const menu = page.getByRole('button', { name: 'Open menu' });
        await menu.waitFor({ state: 'visible', timeout: 120_000 });
        await page.waitForFunction(
          () => {
            const button = document.querySelector('button[aria-label="Open menu"]');
            return !!button && Object.keys(button).some((key) => key.startsWith('__reactProps$'));
          },
          undefined,
          { timeout: 120_000, polling: 'raf' },
        );
        await menu.click();
        await page.getByRole('button', { name: 'Close menu' }).waitFor({ state: 'visible', timeout: 30_000 });
      } catch (error) {
        throw new Error(`${MODES[mode].title}: the first screen did not become usable (${String(error).split('\n')[0]}); the page reported: ${problems.join('; ') || 'nothing'}`, { cause: error });
      }
      return { firstPageMs, usableMs: performance.now() - navigated };
    } finally {
      await context.close();
    }
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * `runs` starts of each, interleaved (the order rotating each round) so a burst of load on this
 * shared machine does not fall on one mode only. The production build is made fresh first (as after
 * any `npm start`), so its starts measure serving it, not building it. The dev servers get Vite
 * dependency caches of the bench's own (VITE_CACHE_DIR), never node_modules/.vite, which others'
 * dev servers on this machine use: an empty one per start for a first `npm run dev`, and one warmed
 * by an unrecorded start for the later ones.
 */
export async function measureStart(runs: number, log: (message: string) => void): Promise<StartRow[]> {
  const { built } = await ensureSiteBuild({ log: (message) => log(message) });
  if (built) log('start: the production build was made first; the starts below only serve it');
  const found = await resolveChromium();
  const browser = await chromium.launch({ executablePath: found.executablePath, env: browserEnv(found), args: CHROMIUM_FLAGS });
  const samples: Record<StartMode, StartSample[]> = { production: [], 'dev-first': [], dev: [] };
  const caches = mkdtempSync(path.join(tmpdir(), 'bench-start-vite-'));
  const warmCache = path.join(caches, 'warm');
  try {
    log('start: warming a Vite dependency cache (unrecorded)');
    await sampleOnce('dev', browser, warmCache);
    const modes: StartMode[] = ['production', 'dev-first', 'dev'];
    for (let round = 0; round < runs; round++) {
      const order = modes.map((_, i) => modes[(i + round) % modes.length]!);
      for (const mode of order) {
        log(`start: round ${round + 1}/${runs}, ${MODES[mode].title}`);
        const cache = mode === 'dev' ? warmCache : mode === 'dev-first' ? path.join(caches, `first-${round}`) : undefined;
        const sample = await sampleOnce(mode, browser, cache);
        log(`start: first page answered after ${seconds(sample.firstPageMs)}, usable ${seconds(sample.usableMs)} after navigating`);
        samples[mode].push(sample);
      }
    }
  } finally {
    await browser.close();
    rmSync(caches, { recursive: true, force: true });
  }
  return (['production', 'dev-first', 'dev'] as const).map((mode) => startRow(mode, samples[mode]));
}

export function startRow(mode: StartMode, samples: StartSample[]): StartRow {
  if (!samples.length) throw new Error(`No starts measured for ${mode}`);
  return { mode, samples, firstPageMs: median(samples.map((s) => s.firstPageMs)), usableMs: median(samples.map((s) => s.usableMs)) };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function startTable(rows: readonly StartRow[]): string {
  const of = (mode: StartMode) => {
    const row = rows.find((r) => r.mode === mode);
    if (!row) throw new Error('The start comparison needs the production build and both dev server cases');
    return row;
  };
  const production = of('production');
  const first = of('dev-first');
  const later = of('dev');
  const total = (r: StartRow) => r.firstPageMs + r.usableMs;
  const ratioRow = (dev: StartRow, judged: boolean) => {
    const ratio = (measure: (r: StartRow) => number) => measure(dev) / measure(production);
    return [
      `${dev === first ? 'first dev start' : 'later dev start'} ÷ production`,
      `${ratio((r) => r.firstPageMs).toFixed(1)}×`,
      `${ratio((r) => r.usableMs).toFixed(1)}×`,
      `${ratio(total).toFixed(1)}×`,
      judged ? `≥ ${MIN_START_SPEEDUP}× to a usable screen: ${verdict(ratio((r) => r.usableMs) >= MIN_START_SPEEDUP)}` : 'for information',
    ];
  };
  const runs = production.samples.length;
  return [
    markdownTable(
      [
        { title: 'Starting the marketplace' },
        { title: 'Start → first page answered', align: 'right' },
        { title: 'First page → usable screen', align: 'right' },
        { title: 'Start → usable screen', align: 'right' },
        { title: 'Usable screens of the runs' },
      ],
      [
        ...[production, first, later].map((r) => [
          MODES[r.mode].title,
          seconds(r.firstPageMs),
          seconds(r.usableMs),
          seconds(total(r)),
          r.samples.map((s) => seconds(s.usableMs)).join(', '),
        ]),
        ratioRow(first, true),
        ratioRow(later, false),
      ],
    ),
    '',
    `Median of ${runs} starts of each, interleaved, each a fresh process on a fresh data folder, the production ` +
      'build already made. "First page answered": from spawning the process until GET / has answered in full. ' +
      '"Usable screen": from navigating a fresh browser context (empty cache, a 390×844 phone viewport) to / until ' +
      'the heading shows and the menu button, taken over by React, opens the menu when clicked. "Dependencies to ' +
      'pre-bundle": an empty Vite dependency cache, as on the first `npm run dev` after `npm ci` or a dependency ' +
      'change, when Vite bundles React and the other packages during the first page load; "pre-bundled": a cache ' +
      'from an earlier start. The target is on the first dev start\'s usable screen.',
  ].join('\n');
}
