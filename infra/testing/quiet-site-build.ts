import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureSiteBuild, freshBuild, SITE_CACHE_DIR, SITE_SOURCES } from '../local/site-build';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * `npm start`'s production build, for a global setup. Vite and Rolldown print their warnings both
 * through the console and straight to process.stderr, and a global setup runs in the runner's own
 * process, outside any test whose output the runner keeps back: a passing run would show them. So a
 * build that is needed is made in a child process whose output is kept, and shown only if it fails.
 */
export async function ensureSiteBuildQuietly(): Promise<string> {
  if (!freshBuild(SITE_CACHE_DIR, SITE_SOURCES)) await buildInChild();
  // Fresh now, unless a source was saved during the build: then it is made again here, not hidden.
  return (await ensureSiteBuild({ log: () => {} })).dist;
}

function buildInChild(): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'build-site.ts')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`The site's production build failed (${signal ?? `exit code ${code}`}):\n${output}`));
    });
  });
}
