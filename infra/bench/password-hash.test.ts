import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measurePasswordHashing, passwordHashTable, projectedMs, singleThreadShare } from './password-hash';

const root = path.resolve(import.meta.dirname, '../..');

describe("Lambda's CPU share for one thread", () => {
  it('grows with memory up to one whole vCPU at 1,769 MB and no further', () => {
    // Act
    const shares = [128, 256, 1769, 3008, 10240].map(singleThreadShare);

    // Assess
    expect(shares[0]).toBeCloseTo(128 / 1769, 6);
    expect(shares[1]).toBeCloseTo(0.1447, 4);
    expect(shares.slice(2)).toEqual([1, 1, 1]);
  });

  it('turns a time on a whole core into the time at a memory size', () => {
    expect(projectedMs(450, 256)).toBeCloseTo(450 * (1769 / 256), 6);
    expect(projectedMs(450, 1769)).toBe(450);
    expect(projectedMs(450, 4096)).toBe(450);
  });

  it('refuses a memory size that is not a positive number', () => {
    expect(() => singleThreadShare(0)).toThrow(/positive number of MB/);
    expect(() => singleThreadShare(Number.NaN)).toThrow(/positive number of MB/);
  });
});

describe('the password hashing bench part', () => {
  const outDir = mkdtempSync(path.join(tmpdir(), 'bench-passwords-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('verifies a stored hash from the function bundle in a fresh process, cold then warm, beside the reference, and reports both', async () => {
    // Act
    const figures = await measurePasswordHashing(root, outDir, 1, 1);
    const table = passwordHashTable(figures, 1769);

    // Assess: real scrypt work (milliseconds, not a no-op), and the table names what it measured
    expect(figures.verifyColdMs).toBeGreaterThan(5);
    expect(figures.verifyWarmMs).toBeGreaterThan(5);
    expect(figures.hashWarmMs).toBeGreaterThan(5);
    expect(figures.referenceWarmMs).toBeGreaterThan(0);
    expect(figures.bundleBytes).toBeGreaterThan(0);
    expect(table).toMatch(/^\| One password hash \(scrypt N=2\^15, r=8, p=3\)/);
    expect(table).toContain('| verifyPassword, a login');
    expect(table).toContain('| reference: SHA-256 of 32 MiB');
    expect(table).toContain('Lambda 1,769 MB (1.000 vCPU)');
    expect(table).toContain('Lambda 256 MB (0.145 vCPU)');
  });
});
