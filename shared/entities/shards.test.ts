import { describe, expect, it } from 'vitest';
import { documentEntity, invoiceEntity, jobEntity, workerEntity } from '.';
import { shardOf } from './shards';

/** Pearson's chi-square of `counts` against an even spread. */
function chiSquare(counts: readonly number[]): number {
  const expected = counts.reduce((a, b) => a + b, 0) / counts.length;
  return counts.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
}

/** The 0.999 quantile of chi-square for 3 and 7 degrees of freedom: an even hash exceeds it once in a thousand. */
const CHI_SQUARE_999 = { 4: 16.27, 8: 24.32 } as const;

/** A seeded generator of ids shaped as newId()'s (22 base64url characters), so the check is the same every run. */
function* seededIds(seed: number): Generator<string> {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let state = seed;
  for (;;) {
    let id = '';
    for (let i = 0; i < 22; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      id += alphabet[state >>> 26];
    }
    yield id;
  }
}

function spread(keys: readonly string[], shards: number): number[] {
  const counts = new Array<number>(shards).fill(0);
  for (const key of keys) counts[shardOf(key, shards)]!++;
  return counts;
}

describe('shardOf', () => {
  it('gives an item the same shard every time, the one stored items were filed in', () => {
    // Act / Assess: these pin the hash; a different one would leave stored items in the wrong shards
    expect([shardOf('JOB#abc', 8), shardOf('WORKER#abc', 4), shardOf('JOB#AAAAAAAAAAAAAAAAAAAAAA', 8), shardOf('INVOICE#x1', 4)]).toEqual([5, 2, 2, 2]);
    expect(shardOf('JOB#abc', 8)).toBe(shardOf(`JOB#${'abc'}`, 8));
  });

  it('spreads 10,000 random ids evenly over 8 and over 4 shards', () => {
    // Prepare
    const ids = seededIds(7);
    const keys = Array.from({ length: 10_000 }, () => `JOB#${ids.next().value}`);

    // Act
    const over8 = spread(keys, 8);
    const over4 = spread(keys, 4);

    // Assess
    expect(chiSquare(over8)).toBeLessThan(CHI_SQUARE_999[8]);
    expect(chiSquare(over4)).toBeLessThan(CHI_SQUARE_999[4]);
    for (const n of over8) expect(Math.abs(n - 1250)).toBeLessThan(125);
  });

  it('spreads ids that differ only in their last characters (sequential numbers) as evenly', () => {
    // Prepare
    const keys = Array.from({ length: 10_000 }, (_, i) => `WORKER#worker-${String(i).padStart(5, '0')}`);

    // Act
    const over8 = spread(keys, 8);

    // Assess
    expect(chiSquare(over8)).toBeLessThan(CHI_SQUARE_999[8]);
    for (const n of over8) expect(Math.abs(n - 1250)).toBeLessThan(125);
  });
});

describe('write-sharded lists', () => {
  it('file an item under its own shard of each list, the partition keeping the list\'s old name as its prefix', () => {
    // Prepare
    const key = jobEntity.key('j1');
    const shard = jobEntity.indexes.all.shardOf(key);

    // Act
    const keys = jobEntity.indexes.all.keyFor(key, '2026-01-01T00:00:00.000Z');

    // Assess
    expect(keys).toEqual({ gsi3pk: `JOBS#${shard}`, gsi3sk: 'JOB#2026-01-01T00:00:00.000Z' });
    expect(shard).toBe(shardOf(key.pk, jobEntity.indexes.all.shards));
  });

  it('read as one range per shard, each narrowed alike', () => {
    // Act
    const ranges = documentEntity.indexes.current.ranges('2026-01');

    // Assess
    expect(ranges).toHaveLength(documentEntity.indexes.current.shards);
    expect(ranges.map((r) => r.pk)).toEqual(Array.from({ length: ranges.length }, (_, i) => `DOCUMENTS#${i}`));
    expect(new Set(ranges.map((r) => JSON.stringify(r.sk)))).toEqual(new Set([JSON.stringify({ beginsWith: 'DOC#2026-01#' })]));
  });

  it('keep an update\'s item in its shard, from the key every update knows', () => {
    // Act: a job going back among the open ones, its shard hashed from its key
    const writes = jobEntity.indexWrites({ values: { state: 'booked' }, computed: [], removed: [] }, { pk: 'JOB#j1', sk: 'JOB' });

    // Assess
    expect(writes.set).toEqual({ gsi4pk: `OPENJOBS#${shardOf('JOB#j1', 8)}`, gsi4sk: { copyOf: 'createdAt' } });
  });

  it('refuse to file an update whose item key is unknown, rather than hash a wrong shard', () => {
    // Act / Assess
    expect(() => jobEntity.indexWrites({ values: { state: 'booked' }, computed: [], removed: [] })).toThrow(/needs pk/);
  });

  it('file a put by the same hash as an update, for every sharded list', () => {
    // Prepare
    const put = invoiceEntity.withIndexKeys({ ...invoiceEntity.key('i1'), createdAt: 't', paidAt: 'p' } as never);
    const worker = workerEntity.withIndexKeys({ ...workerEntity.key('w1'), createdAt: 't' } as never);

    // Assess
    const invoiceShard = shardOf('INVOICE#i1', invoiceEntity.indexes.all.shards);
    expect(put).toMatchObject({ gsi3pk: `INVOICES#${invoiceShard}`, gsi4pk: `PAYMENTS#${invoiceShard}`, gsi4sk: 'PAID#p' });
    expect(worker).toMatchObject({ gsi2pk: `WORKERS#${shardOf('WORKER#w1', workerEntity.indexes.all.shards)}`, gsi2sk: 'WORKER#t' });
  });
});
