import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureSiteBuild, newestSourceTime } from './site-build';

const scratch = mkdtempSync(path.join(tmpdir(), 'site-build-'));

/** A source tree and a cache folder of their own, and a build that writes an index.html and counts itself. */
function workspace(name: string) {
  const dir = path.join(scratch, name);
  const src = path.join(dir, 'src');
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(src, 'app.tsx'), 'export const app = 1;\n');
  const lockfile = path.join(dir, 'package-lock.json');
  writeFileSync(lockfile, '{}\n');
  // Sources dated a minute ago, as on a checkout that was not touched since.
  const past = new Date(Date.now() - 60_000);
  for (const file of [src, path.join(src, 'app.tsx'), lockfile]) utimesSync(file, past, past);
  const builds: string[] = [];
  const messages: string[] = [];
  return {
    src,
    builds,
    messages,
    options: {
      cacheDir: path.join(dir, 'cache'),
      sources: [src, lockfile],
      log: (message: string) => messages.push(message),
      build: async (outDir: string) => {
        builds.push(outDir);
        await new Promise((resolve) => setTimeout(resolve, 50));
        mkdirSync(outDir, { recursive: true });
        writeFileSync(path.join(outDir, 'index.html'), '<div id="root"></div>');
      },
    },
  };
}

describe('the production build npm start keeps', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('is built on the first start, saying so, and not on the next', async () => {
    // Prepare
    const ws = workspace('first');

    // Act
    const first = await ensureSiteBuild(ws.options);
    const second = await ensureSiteBuild(ws.options);

    // Assess
    expect(first.built).toBe(true);
    expect(ws.messages[0]).toMatch(/^Building the site \(first start, ~\d+ s\)…$/);
    expect(second).toEqual({ dist: first.dist, built: false });
    expect(ws.builds).toHaveLength(1);
  });

  it('is built again when a source changes or a file is added, and keeps the build before for a stack still serving it', async () => {
    // Prepare
    const ws = workspace('changed');
    const first = await ensureSiteBuild(ws.options);

    // Act
    writeFileSync(path.join(ws.src, 'app.tsx'), 'export const app = 2;\n');
    const afterEdit = await ensureSiteBuild(ws.options);
    writeFileSync(path.join(ws.src, 'new-screen.tsx'), 'export {};\n');
    const afterAdd = await ensureSiteBuild(ws.options);

    // Assess
    expect(afterEdit.built).toBe(true);
    expect(afterAdd.built).toBe(true);
    expect(new Set([first.dist, afterEdit.dist, afterAdd.dist]).size).toBe(3);
    expect(ws.messages).toContain('Building the site (the sources changed since the last build, ~0 s)…');
    const kept = readdirSync(ws.options.cacheDir).filter((name) => name.startsWith('build-'));
    expect(kept.sort()).toEqual([path.basename(afterEdit.dist), path.basename(afterAdd.dist)].sort());
  });

  it('is built once when two starts ask for it at the same time: the second waits for the first', async () => {
    // Prepare
    const ws = workspace('together');

    // Act
    const [one, two] = await Promise.all([ensureSiteBuild(ws.options), ensureSiteBuild(ws.options)]);

    // Assess
    expect(ws.builds).toHaveLength(1);
    expect(one.dist).toBe(two.dist);
    expect([one.built, two.built].sort()).toEqual([false, true]);
    expect(ws.messages).toContain('Another start is building the site; waiting for it…');
  });

  it('counts a folder’s own time, so a deleted source makes the build stale too', () => {
    // Prepare
    const ws = workspace('deleted');
    const before = newestSourceTime(ws.options.sources);

    // Act
    rmSync(path.join(ws.src, 'app.tsx'));

    // Assess
    expect(newestSourceTime(ws.options.sources)).toBeGreaterThan(before);
  });
});
