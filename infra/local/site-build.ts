import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildWeb } from './static-site';

/**
 * The production build `npm start` serves, kept between starts in one fixed folder and made again
 * only when a source it is built from changed since. Builds are made beside each other and a stamp
 * names the current one, so a second stack already serving the previous build keeps its files
 * while a newer one is made; a lock lets one start build while another waits for it.
 */

const root = path.resolve(import.meta.dirname, '../..');

/** Under node_modules (ignored by git, and gone with a fresh `npm ci`, as a build cache should be). */
export const SITE_CACHE_DIR = path.join(root, 'node_modules/.cache/marketplace-site');

/** What the build is made from: the app, what it imports from shared/, its build config and the locked packages. */
export const SITE_SOURCES = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/vite-prerender.ts',
  'shared',
  'package-lock.json',
  'tsconfig.json',
].map((p) => path.join(root, p));

interface Stamp {
  /** The build's folder, under the cache folder. */
  dir: string;
  /** The sources as they were when the build began: a source changed after this makes it stale. */
  sourcesAsOf: number;
  buildMs: number;
}

/**
 * The newest modification time among `sources` and everything under them, folders included (a
 * folder's time moves when a file in it is added, removed or renamed). Missing paths count as old.
 */
export function newestSourceTime(sources: readonly string[]): number {
  let newest = 0;
  const visit = (file: string) => {
    let stats;
    try {
      stats = statSync(file);
    } catch {
      return;
    }
    newest = Math.max(newest, stats.mtimeMs);
    if (stats.isDirectory()) for (const name of readdirSync(file)) visit(path.join(file, name));
  };
  for (const source of sources) visit(source);
  return newest;
}

function readStamp(cacheDir: string): Stamp | undefined {
  try {
    const stamp = JSON.parse(readFileSync(path.join(cacheDir, 'current.json'), 'utf8')) as Stamp;
    return existsSync(path.join(cacheDir, stamp.dir, 'index.html')) ? stamp : undefined;
  } catch {
    return undefined;
  }
}

/** The current build, if it is at least as new as every source. */
export function freshBuild(cacheDir: string, sources: readonly string[]): string | undefined {
  const stamp = readStamp(cacheDir);
  if (!stamp || newestSourceTime(sources) > stamp.sourcesAsOf) return undefined;
  return path.join(cacheDir, stamp.dir);
}

export interface SiteBuildOptions {
  cacheDir?: string;
  sources?: readonly string[];
  log?: (message: string) => void;
  /** Makes the build into a folder (default: Vite and the prerender, as for the cloud). */
  build?: (outDir: string) => Promise<void>;
}

/** A first build takes about this long on a busy 2-core machine; later ones say how long the last one took. */
const FIRST_BUILD_ESTIMATE_S = 10;

/** The folder of a production build as new as the sources, built first when there is none. */
export async function ensureSiteBuild(options: SiteBuildOptions = {}): Promise<{ dist: string; built: boolean }> {
  const cacheDir = options.cacheDir ?? SITE_CACHE_DIR;
  const sources = options.sources ?? SITE_SOURCES;
  const log = options.log ?? ((message: string) => console.log(message));
  const fresh = freshBuild(cacheDir, sources);
  if (fresh) return { dist: fresh, built: false };

  mkdirSync(cacheDir, { recursive: true });
  const release = await takeLock(path.join(cacheDir, 'build.lock'), log);
  try {
    // Another start may have built it while this one waited for the lock.
    const builtMeanwhile = freshBuild(cacheDir, sources);
    if (builtMeanwhile) return { dist: builtMeanwhile, built: false };

    const previous = readStamp(cacheDir);
    const estimate = Math.round((previous?.buildMs ?? FIRST_BUILD_ESTIMATE_S * 1000) / 1000);
    log(`Building the site (${previous ? 'the sources changed since the last build' : 'first start'}, ~${estimate} s)…`);
    const started = Date.now();
    // A source saved from now on is newer than this build. A source dated in the future (a clock
    // change) counts as of its own date, or every start would build again.
    const sourcesAsOf = Math.max(started, newestSourceTime(sources));
    const dir = `build-${started}-${process.pid}`;
    await (options.build ?? buildWeb)(path.join(cacheDir, dir));
    const stamp: Stamp = { dir, sourcesAsOf, buildMs: Date.now() - started };
    const temporary = path.join(cacheDir, `current.json.${process.pid}`);
    writeFileSync(temporary, `${JSON.stringify(stamp)}\n`);
    renameSync(temporary, path.join(cacheDir, 'current.json'));
    log(`Site built in ${(stamp.buildMs / 1000).toFixed(1)} s.`);
    // The previous build stays: a stack started before may still be serving it. Older ones, and
    // any a killed build left half made, go; one a live process is making is left to it.
    for (const name of readdirSync(cacheDir)) {
      const builder = Number(/^build-\d+-(\d+)$/.exec(name)?.[1]);
      if (!builder || name === dir || name === previous?.dir || (builder !== process.pid && isRunning(builder))) continue;
      rmSync(path.join(cacheDir, name), { recursive: true, force: true });
    }
    return { dist: path.join(cacheDir, dir), built: true };
  } finally {
    release();
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A folder made with mkdir (atomic: one process wins) holding the builder's pid. A lock whose
 * builder is gone (killed mid-build) is taken over rather than waited on for ever.
 */
export async function takeLock(lockDir: string, log: (message: string) => void): Promise<() => void> {
  let told = false;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: number | undefined;
    try {
      holder = Number(readFileSync(path.join(lockDir, 'pid'), 'utf8'));
    } catch {
      // Made a moment ago, its pid not yet written.
    }
    // No pid a while after the folder was made: its maker died between the two steps.
    const orphaned = !holder && Date.now() - (statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 10_000;
    if ((holder && !isRunning(holder)) || orphaned) {
      rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (!told) {
      log('Another start is building the site; waiting for it…');
      told = true;
    }
    await sleep(250);
  }
}
