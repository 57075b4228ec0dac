import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('typed errors', () => {
  it('keep their names when minified, as the deployed bundles are (the error field of a 4xx)', async () => {
    // Prepare: the errors module bundled and minified as a function bundle is
    const dir = mkdtempSync(path.join(tmpdir(), 'errors-min-'));
    const out = path.join(dir, 'errors.mjs');
    await build({ entryPoints: [path.join(import.meta.dirname, 'errors.ts')], bundle: true, minify: true, format: 'esm', platform: 'node', outfile: out, logLevel: 'silent' });
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');

    // Act
    const mod = (await import(pathToFileURL(out).href)) as Record<string, new (message: string, extra?: unknown) => Error>;
    const names = Object.entries(mod).filter(([exported]) => exported !== 'HttpError').map(([exported, Cls]) => [exported, new Cls('x', {}).name]);

    // Assess
    expect(names.length).toBeGreaterThan(5);
    for (const [exported, name] of names) expect(name).toBe(exported);
    rmSync(dir, { recursive: true, force: true });
  });
});
