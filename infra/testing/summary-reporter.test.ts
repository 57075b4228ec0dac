import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const fixtures = path.join(import.meta.dirname, 'fixtures/summary');
const vitestCli = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const configDir = mkdtempSync(path.join(tmpdir(), 'summary-reporter-'));

/** Vitest as CI runs it, on the fixture files only (their names match none of the project's globs), with this reporter. */
function runVitest(files: string[]): Promise<{ code: number | null; output: string }> {
  const config = path.join(configDir, 'vitest.config.mjs');
  writeFileSync(
    config,
    `export default ${JSON.stringify({
      test: { root: fixtures, include: files, reporters: [path.join(import.meta.dirname, 'summary-reporter.ts')], watch: false },
    })};\n`,
  );
  const child = spawn(process.execPath, [vitestCli, 'run', '--config', config], {
    cwd: fixtures,
    env: { ...process.env, NO_COLOR: '1', VITEST: undefined, VITEST_MODE: undefined, VITEST_POOL_ID: undefined, VITEST_WORKER_ID: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('the closing summary line', () => {
  afterAll(() => rmSync(configDir, { recursive: true, force: true }));

  it('counts the tests of a file that failed before they ran as failed, and names the failed files', async () => {
    // Act
    const { code, output } = await runVitest(['hook-throws.fixture.ts', 'import-throws.fixture.ts', 'passes.fixture.ts']);

    // Assess
    expect(code, output).not.toBe(0);
    // 2 tests the failed hook kept from running, 1 for the file that failed to import; the .skip and .todo stay skips.
    expect(output).toContain('Tests: 1 passed, 3 failed, 2 skipped; 2 files failed: hook-throws.fixture.ts, import-throws.fixture.ts');
  });

  it('shows no failure for a run that has none', async () => {
    // Act
    const { code, output } = await runVitest(['passes.fixture.ts']);

    // Assess
    expect(code, output).toBe(0);
    expect(output).toContain('Tests: 1 passed, 0 failed, 1 skipped\n');
  });
});
