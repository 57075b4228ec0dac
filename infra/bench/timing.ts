import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export interface Target {
  id: string;
  file: string;
}

/**
 * The environment of every measuring process: only what the functions' env parser needs and
 * what Node needs to start. A developer's NODE_OPTIONS or AWS_* variables must not change results.
 */
const childEnv: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  TABLE_NAME: 'bench',
  AWS_REGION: 'us-east-1',
};

/** One cold import, in a fresh Node process, timed from inside it (process start-up is not counted). */
export function coldImportMs(file: string): number {
  const url = pathToFileURL(file).href;
  const code = `const t = performance.now(); await import(${JSON.stringify(url)}); console.log(performance.now() - t);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    env: childEnv,
    encoding: 'utf8',
  });
  const ms = Number(run.stdout.trim().split('\n').pop());
  if (run.status !== 0 || !Number.isFinite(ms)) {
    throw new Error(`Importing ${file} failed (exit ${run.status}):\n${run.stderr || run.stdout}`);
  }
  return ms;
}

/**
 * `runs` samples per target, interleaved: each round imports every target once, so a burst of
 * load on this shared machine hits all targets alike instead of skewing one. The starting target
 * rotates each round so none is always measured first (or right after another in particular).
 * One unrecorded round first warms the OS file cache, which a later round would otherwise enjoy alone.
 */
export function measureInterleaved(
  targets: Target[],
  runs: number,
  onRound: (done: number) => void = () => {},
): Map<string, number[]> {
  const samples = new Map<string, number[]>(targets.map((t) => [t.id, []]));
  for (const t of targets) coldImportMs(t.file);
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(round + i) % targets.length]!;
      samples.get(target.id)!.push(coldImportMs(target.file));
    }
    onRound(round + 1);
  }
  return samples;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
