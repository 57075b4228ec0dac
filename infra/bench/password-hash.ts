import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PASSWORD_HASHING_MEMORY_MB } from '../../shared/routes';
import { bundle } from './lambda';
import { markdownTable, ms } from './report';
import { median } from './timing';

/**
 * One password hash as the login functions run it: functions/common/auth/passwords.ts bundled exactly
 * as a function is (infra/bench/lambda.ts), its first verify timed in a fresh Node process (cold: a
 * login on a new instance) and the next ones in the same process (warm), next to a reference
 * measured side by side in the same processes.
 *
 * The reference is a SHA-256 of 32 MiB, the bytes scrypt's working memory holds at this setting
 * (128·N·r): one thread of CPU and memory traffic of the same size, so on this shared machine a
 * burst of load slows both alike and their ratio stays put. (A SHA-256 of the password itself
 * takes a microsecond: that measures the call, not the core.)
 */

/** Lambda's documented share: one whole vCPU at 1,769 MB, in proportion below it. */
export const LAMBDA_MB_PER_VCPU = 1769;
/** The stack's default memory for a function (what a route without `memoryMb` gets). */
export const DEFAULT_MEMORY_MB = 256;
export const HASH_PROCESSES = 9;
export const WARM_REPEATS = 5;

/** The vCPU share Lambda gives a function of `memoryMb`; a single thread never uses more than one. */
export function singleThreadShare(memoryMb: number): number {
  if (!Number.isFinite(memoryMb) || memoryMb <= 0) throw new Error(`memory must be a positive number of MB, not ${memoryMb}`);
  return Math.min(1, memoryMb / LAMBDA_MB_PER_VCPU);
}

/**
 * What one single-threaded piece of CPU work measured at `coreMs` on a whole core of this machine
 * takes at `memoryMb`, if Lambda's vCPU were as fast as this core (it is not the same CPU: see README).
 */
export function projectedMs(coreMs: number, memoryMb: number): number {
  return coreMs / singleThreadShare(memoryMb);
}

export interface HashSample {
  /** The first scrypt verify in the process, and the first reference. */
  verifyColdMs: number;
  referenceColdMs: number;
  /** The next ones, alternating. */
  verifyWarmMs: number[];
  hashWarmMs: number[];
  referenceWarmMs: number[];
}

export interface HashFigures {
  processes: number;
  warmRepeats: number;
  verifyColdMs: number;
  verifyWarmMs: number;
  hashWarmMs: number;
  referenceColdMs: number;
  referenceWarmMs: number;
  bundleBytes: number;
}

const PASSWORD = 'correct horse battery staple';

/** The script each fresh process runs: imports the bundle, then times the calls in order. */
function childScript(bundleUrl: string, referenceFirst: boolean, warmRepeats: number): string {
  return `
    const { createHash } = await import('node:crypto');
    const { hashPassword, verifyPassword } = await import(${JSON.stringify(bundleUrl)});
    const password = ${JSON.stringify(PASSWORD)};
    const stored = process.env.BENCH_STORED_HASH;
    const block = Buffer.alloc(128 * 2 ** 15 * 8, 7);
    const time = async (work) => { const t = performance.now(); await work(); return performance.now() - t; };
    const verify = async () => { if (!(await verifyPassword(password, stored))) throw new Error('the stored hash did not verify'); };
    const hash = () => hashPassword(password);
    const reference = () => createHash('sha256').update(block).digest();
    const out = { verifyWarmMs: [], hashWarmMs: [], referenceWarmMs: [] };
    if (${referenceFirst}) { out.referenceColdMs = await time(reference); out.verifyColdMs = await time(verify); }
    else { out.verifyColdMs = await time(verify); out.referenceColdMs = await time(reference); }
    for (let i = 0; i < ${warmRepeats}; i++) {
      out.verifyWarmMs.push(await time(verify));
      out.referenceWarmMs.push(await time(reference));
      out.hashWarmMs.push(await time(hash));
    }
    console.log(JSON.stringify(out));
  `;
}

/** Bundles the password module as a function's code would be, and makes the hash the processes verify. */
export async function buildHashBundle(root: string, outDir: string): Promise<{ file: string; bytes: number; stored: string }> {
  mkdirSync(outDir, { recursive: true });
  const entry = path.join(outDir, 'entry.ts');
  const passwords = path.join(root, 'functions/common/auth/passwords.ts');
  writeFileSync(entry, `export { hashPassword, verifyPassword } from ${JSON.stringify(passwords)};\n`);
  const built = await bundle(root, entry, path.join(outDir, 'index.mjs'));
  const { hashPassword } = (await import(pathToFileURL(built.file).href)) as { hashPassword: (password: string) => Promise<string> };
  return { file: built.file, bytes: built.bytes, stored: await hashPassword(PASSWORD) };
}

/** One fresh process: its cold verify and reference, then `warmRepeats` of each. */
export function sampleOnce(bundleFile: string, stored: string, referenceFirst: boolean, warmRepeats = WARM_REPEATS): HashSample {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', childScript(pathToFileURL(bundleFile).href, referenceFirst, warmRepeats)], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, BENCH_STORED_HASH: stored },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`The hashing process failed (exit ${run.status}):\n${run.stderr || run.stdout}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as HashSample;
}

/** `processes` fresh processes, the reference timed first in every other one so neither is always first. */
export async function measurePasswordHashing(root: string, outDir: string, processes = HASH_PROCESSES, warmRepeats = WARM_REPEATS): Promise<HashFigures> {
  const built = await buildHashBundle(root, outDir);
  const samples = Array.from({ length: processes }, (_, i) => sampleOnce(built.file, built.stored, i % 2 === 1, warmRepeats));
  return {
    processes,
    warmRepeats,
    verifyColdMs: median(samples.map((s) => s.verifyColdMs)),
    verifyWarmMs: median(samples.flatMap((s) => s.verifyWarmMs)),
    hashWarmMs: median(samples.flatMap((s) => s.hashWarmMs)),
    referenceColdMs: median(samples.map((s) => s.referenceColdMs)),
    referenceWarmMs: median(samples.flatMap((s) => s.referenceWarmMs)),
    bundleBytes: built.bytes,
  };
}

export function passwordHashTable(f: HashFigures, memoryMb = PASSWORD_HASHING_MEMORY_MB): string {
  const ratio = (value: number, reference: number) => `${(value / reference).toFixed(1)}×`;
  const seconds = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : ms(value));
  const table = markdownTable(
    [
      { title: 'One password hash (scrypt N=2^15, r=8, p=3)' },
      { title: 'Cold', align: 'right' },
      { title: 'Warm', align: 'right' },
      { title: 'Warm ÷ reference', align: 'right' },
      { title: `Lambda ${DEFAULT_MEMORY_MB} MB (${singleThreadShare(DEFAULT_MEMORY_MB).toFixed(3)} vCPU)`, align: 'right' },
      { title: `Lambda ${memoryMb.toLocaleString('en-US')} MB (${singleThreadShare(memoryMb).toFixed(3)} vCPU)`, align: 'right' },
    ],
    [
      [
        'verifyPassword, a login',
        ms(f.verifyColdMs),
        ms(f.verifyWarmMs),
        ratio(f.verifyWarmMs, f.referenceWarmMs),
        seconds(projectedMs(f.verifyWarmMs, DEFAULT_MEMORY_MB)),
        seconds(projectedMs(f.verifyWarmMs, memoryMb)),
      ],
      [
        'hashPassword, a new password',
        '—',
        ms(f.hashWarmMs),
        ratio(f.hashWarmMs, f.referenceWarmMs),
        seconds(projectedMs(f.hashWarmMs, DEFAULT_MEMORY_MB)),
        seconds(projectedMs(f.hashWarmMs, memoryMb)),
      ],
      [
        'reference: SHA-256 of 32 MiB',
        ms(f.referenceColdMs),
        ms(f.referenceWarmMs),
        '1.0×',
        seconds(projectedMs(f.referenceWarmMs, DEFAULT_MEMORY_MB)),
        seconds(projectedMs(f.referenceWarmMs, memoryMb)),
      ],
    ],
  );
  return [
    table,
    '',
    `functions/common/auth/passwords.ts bundled as a function is (${(f.bundleBytes / 1024).toFixed(1)} KB), in ${f.processes} fresh Node ` +
      `processes: cold is the first verify of a stored hash in the process (a login on a new instance, after its import), warm the ` +
      `median of the next ${f.warmRepeats} of each in every process. The reference runs in the same processes, alternating with the ` +
      `hash, first in every other process. The Lambda columns divide this machine's one-core figure by Lambda's vCPU share ` +
      `(memory ÷ ${LAMBDA_MB_PER_VCPU.toLocaleString('en-US')} MB, at most 1: scrypt is one thread); a Lambda vCPU is not this ` +
      "machine's core, so they are an order of magnitude, not a promise.",
  ].join('\n');
}
