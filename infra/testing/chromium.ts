import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib';

/**
 * The one place that finds a Chromium for the browser journeys, the Lighthouse bench and the icon
 * script: CHROMIUM_PATH if set, else the system's (Debian's package at /usr/bin/chromium), else the
 * headless Chromium packaged in @sparticuz/chromium, so a machine without a system browser still
 * runs every browser test.
 */
export interface Chromium {
  executablePath: string;
  /** Variables the browser process needs beside this process's own (the packaged build's libraries); often none. */
  env: Record<string, string>;
  source: 'CHROMIUM_PATH' | 'system' | 'packaged';
}

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export interface ChromiumChoice {
  /** Where CHROMIUM_PATH is read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the system's Chromium would be (default /usr/bin/chromium). */
  systemPath?: string;
  /** The packaged Chromium, ready to launch (default: inflated once into the temp folder). */
  packaged?: () => Promise<Chromium>;
}

export async function resolveChromium(choice: ChromiumChoice = {}): Promise<Chromium> {
  const configured = (choice.env ?? process.env).CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH is ${configured}, and there is no file there`);
    return { executablePath: configured, env: {}, source: 'CHROMIUM_PATH' };
  }
  const system = choice.systemPath ?? SYSTEM_CHROMIUM;
  if (existsSync(system)) return { executablePath: system, env: {}, source: 'system' };
  return (choice.packaged ?? packagedChromium)();
}

/** The variables to launch a resolved Chromium with: this process's, plus what the browser needs. */
export function browserEnv(chromium: Chromium): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, ...chromium.env };
}

const packageRoot = path.resolve(path.dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '../..');
const packageVersion = (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
const binDir = path.join(packageRoot, 'bin');

/** One folder per package version, kept between runs (inflating takes a second or two, and 190 MB). */
export const PACKAGED_DIR = path.join(tmpdir(), `marketplace-chromium-${packageVersion}`);

const ready = new Map<string, Promise<Chromium>>();

/** The packaged Chromium in `installDir`, inflated there first if it is not yet, with the libraries this machine lacks. */
export function packagedChromium(installDir: string = PACKAGED_DIR): Promise<Chromium> {
  let promise = ready.get(installDir);
  if (!promise) {
    promise = installPackagedChromium(installDir).then(launchableFrom);
    ready.set(installDir, promise);
    // A failed attempt (a full disk, say) is tried afresh next time rather than remembered.
    promise.catch(() => ready.delete(installDir));
  }
  return promise;
}

/**
 * Inflates the package's binary, its SwiftShader libraries (it loads them from beside itself), its
 * fonts and the Amazon Linux libraries it is built against into `installDir`. Several processes may
 * do this at once (a bench beside a test run): each inflates into its own staging folder and renames
 * it into place, which is atomic, so `installDir` is either absent or complete, never half written;
 * a process that loses the race drops its copy and uses the winner's.
 */
export async function installPackagedChromium(installDir: string): Promise<string> {
  if (existsSync(installDir)) return installDir;
  removeAbandonedStaging(installDir);
  mkdirSync(path.dirname(installDir), { recursive: true });
  const staging = mkdtempSync(`${installDir}.partial-`);
  try {
    await pipeline(
      createReadStream(path.join(binDir, 'chromium.br')),
      createBrotliDecompress({ chunkSize: 2 ** 21 }),
      createWriteStream(path.join(staging, 'chromium'), { mode: 0o755 }),
    );
    extractTar(brotliDecompressSync(readFileSync(path.join(binDir, 'swiftshader.tar.br'))), staging);
    extractTar(brotliDecompressSync(readFileSync(path.join(binDir, 'fonts.tar.br'))), staging);
    extractTar(brotliDecompressSync(readFileSync(path.join(binDir, 'al2023.tar.br'))), path.join(staging, 'al2023'));
    // The package's own fonts.conf names Lambda's folders; this one names the fonts beside it.
    writeFileSync(
      path.join(staging, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${path.join(installDir, 'fonts')}</dir>\n  <cachedir>${path.join(tmpdir(), 'marketplace-chromium-fonts-cache')}</cachedir>\n</fontconfig>\n`,
    );
    renameSync(staging, installDir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    // Renaming onto a folder that is there fails: another process finished first, and its copy is whole.
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && existsSync(installDir)) return installDir;
    throw error;
  }
  return installDir;
}

/** Staging folders a killed process left behind (an hour old: no live inflation takes that long). */
function removeAbandonedStaging(installDir: string): void {
  const parent = path.dirname(installDir);
  if (!existsSync(parent)) return;
  const prefix = `${path.basename(installDir)}.partial-`;
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const folder = path.join(parent, name);
    try {
      if (Date.now() - statSync(folder).mtimeMs > 3_600_000) rmSync(folder, { recursive: true, force: true });
    } catch {
      // Gone already: another process cleaned it up.
    }
  }
}

/**
 * The installed binary with what it needs from this machine. It is built for Amazon Linux and links
 * NSS, NSPR and expat dynamically; a bare Debian may lack them, and then the package's own copies
 * (al2023/lib) are put on the browser's LD_LIBRARY_PATH. The same for fonts: without a system
 * fontconfig, the package's Open Sans.
 */
function launchableFrom(installDir: string): Chromium {
  const executablePath = path.join(installDir, 'chromium');
  const env: Record<string, string> = {};
  if (missingLibraries(executablePath, {}).length) {
    const own = path.join(installDir, 'al2023', 'lib');
    env.LD_LIBRARY_PATH = process.env.LD_LIBRARY_PATH ? `${own}:${process.env.LD_LIBRARY_PATH}` : own;
    const stillMissing = missingLibraries(executablePath, env);
    if (stillMissing.length) {
      throw new Error(
        `The packaged Chromium (${executablePath}) needs ${stillMissing.join(', ')}, which this machine lacks: ` +
          'install the system Chromium (apt-get install chromium) or set CHROMIUM_PATH.',
      );
    }
  }
  if (!existsSync('/etc/fonts/fonts.conf')) env.FONTCONFIG_PATH = installDir;
  return { executablePath, env, source: 'packaged' };
}

/** The shared libraries the dynamic linker cannot find for `binary` (none known when ldd itself is missing). */
export function missingLibraries(binary: string, extraEnv: Record<string, string>): string[] {
  let listing: string;
  try {
    listing = execFileSync('ldd', [binary], { encoding: 'utf8', env: { ...process.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return [...listing.matchAll(/^\s*(\S+) => not found/gm)].map((m) => m[1]!);
}

/** Writes the files and folders of a ustar archive (all the package's archives hold) under `into`. */
export function extractTar(archive: Buffer, into: string): void {
  const field = (offset: number, length: number) => archive.toString('utf8', offset, offset + length).replace(/\0.*$/s, '');
  let offset = 0;
  while (offset + 512 <= archive.length) {
    const name = field(offset, 100);
    if (!name) break;
    const prefix = field(offset + 345, 155);
    const size = parseInt(field(offset + 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(archive[offset + 156]!);
    const relative = path.normalize(prefix ? `${prefix}/${name}` : name);
    if (relative.startsWith('..') || path.isAbsolute(relative)) throw new Error(`The archive names a path outside its folder: ${relative}`);
    const target = path.join(into, relative);
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0' || type === '\0') {
      mkdirSync(path.dirname(target), { recursive: true });
      const mode = parseInt(field(offset + 100, 8).trim() || '644', 8);
      writeFileSync(target, archive.subarray(offset + 512, offset + 512 + size), { mode });
    } else throw new Error(`The archive holds an entry of type "${type}" (${relative}), which this reader does not write`);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
}
