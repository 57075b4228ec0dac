import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { KeyRange } from '../../../shared/entities';
import { CURSOR_MESSAGE, MAX_CURSOR_LENGTH } from '../../../shared/schemas/page';
import { dynamo, tableName } from '../clients';
import { BadRequestError } from '../errors';
import { decodeMergedCursor, mergePage, positionsAfter, readMergedPage } from './page';
import { queryAllOf, type Query } from './query';

/**
 * A list of our own over four shards of gsi1 (so other tests' items never fall into it), filed as
 * the sharded lists are: each item in one shard, sorted by its sort key, some sort keys equal
 * across shards.
 */
const run = Math.random().toString(36).slice(2);
const SHARDS = 4;
const ranges: KeyRange<Row>[] = Array.from({ length: SHARDS }, (_, shard) => ({ index: 'gsi1', pk: `MERGETEST#${run}#${shard}`, sk: { beginsWith: 'AT#' } }));

interface Row {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  n: number;
  even: boolean;
}

// 60 items: shard 0 holds most, shard 3 none; every fifth shares its sort key with the one before.
const rows: Row[] = Array.from({ length: 60 }, (_, n) => {
  const shard = n % 7 < 4 ? 0 : n % 7 < 6 ? 1 : 2;
  const at = String(n - (n % 5 === 4 ? 1 : 0)).padStart(3, '0');
  return { pk: `MERGEITEM#${run}#${String(n).padStart(3, '0')}`, sk: 'ITEM', gsi1pk: ranges[shard]!.pk, gsi1sk: `AT#${at}`, n, even: n % 2 === 0 };
});
/** The list's order: by sort key (among equal sort keys DynamoDB promises none, so neither do the checks). */
const ascending = [...rows].sort((a, b) => (a.gsi1sk === b.gsi1sk ? (a.pk < b.pk ? -1 : 1) : a.gsi1sk < b.gsi1sk ? -1 : 1)).map((r) => r.n);
const sortKeyOf = (n: number) => rows[n]!.gsi1sk;
/** `ns` in order of their sort keys, `direction` 1 oldest first. */
function inOrder(ns: readonly number[], direction: 1 | -1 = 1): boolean {
  return ns.every((n, i) => i === 0 || sortKeyOf(n) === sortKeyOf(ns[i - 1]!) || (sortKeyOf(n) > sortKeyOf(ns[i - 1]!)) === (direction === 1));
}
const sorted = (ns: readonly number[]) => [...ns].sort((a, b) => a - b);

/** The items each Query read (ScannedCount: before any filter), while `count` is on. */
let scanned = 0;
const counter = 'mergedPageReadCounter';

async function walk(query: Omit<Query<Row>, 'index' | 'pk' | 'limit'>, limit: number) {
  const pages: { items: number[]; read: number }[] = [];
  let cursor: string | undefined;
  do {
    const before = scanned;
    const page = await readMergedPage<Row>(ranges, query, { limit, cursor });
    pages.push({ items: page.items.map((r) => r.n), read: scanned - before });
    if (page.nextCursor) expect(page.nextCursor.length).toBeLessThanOrEqual(MAX_CURSOR_LENGTH);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return pages;
}

describe('reading a write-sharded list a page at a time', () => {
  beforeAll(async () => {
    await Promise.all(rows.map((Item) => dynamo.send(new PutCommand({ TableName: tableName, Item }))));
    dynamo.middlewareStack.add(
      (next) => async (args) => {
        const out = await next(args);
        scanned += (out.output as { ScannedCount?: number }).ScannedCount ?? 0;
        return out;
      },
      { step: 'initialize', name: counter },
    );
  });

  afterAll(() => {
    dynamo.middlewareStack.remove(counter);
  });

  it('answers every item exactly once, in the list\'s order across shards and pages, and ends with a null cursor', async () => {
    // Act
    const oldest = await walk({}, 7);
    const newest = await walk({ newestFirst: true }, 7);

    // Assess
    const oldestItems = oldest.flatMap((p) => p.items);
    const newestItems = newest.flatMap((p) => p.items);
    expect(sorted(oldestItems)).toEqual(sorted(ascending));
    expect(sorted(newestItems)).toEqual(sorted(ascending));
    expect(inOrder(oldestItems, 1)).toBe(true);
    expect(inOrder(newestItems, -1)).toBe(true);
    // Unfiltered, every page but the last is full.
    expect(oldest.slice(0, -1).every((p) => p.items.length === 7)).toBe(true);
  });

  it('keeps a filter and a sort-key range, every kept item once and in order', async () => {
    // Prepare
    const wanted = rows.filter((r) => r.even && r.gsi1sk >= 'AT#010' && r.gsi1sk <= 'AT#045').map((r) => r.n);

    // Act
    const pages = await walk({ newestFirst: true, sk: { between: ['AT#010', 'AT#045'] }, filter: (c) => c.eq('even', true) }, 4);

    // Assess
    const items = pages.flatMap((p) => p.items);
    expect(sorted(items)).toEqual(sorted(wanted));
    expect(inOrder(items, -1)).toBe(true);
  });

  it('reads no more items for a deep page than for the first: at most one page of each shard', async () => {
    // Act
    const pages = await walk({}, 5);

    // Assess: 12 pages of 5; each read at most 5 items of each of the 4 shards, the deepest as the first
    expect(pages).toHaveLength(12);
    for (const page of pages) expect(page.read).toBeLessThanOrEqual(SHARDS * 5);
    expect(Math.max(...pages.slice(6).map((p) => p.read))).toBeLessThanOrEqual(pages[0]!.read);
  });

  it('resumes every shard just after one item of the list, as the invoices\' "after" does', async () => {
    // Prepare
    const queries = ranges.map((range) => ({ ...range, newestFirst: true }));
    // (An item whose sort key no other shares: among equal ones the place is DynamoDB's to choose.)
    const after = rows[40]!;

    // Act
    const page = await mergePage<Row>(queries, positionsAfter(queries, after), 100);

    // Assess
    const items = page.items.map((r) => r.n);
    expect(sorted(items)).toEqual(rows.filter((r) => r.gsi1sk < after.gsi1sk).map((r) => r.n));
    expect(inOrder(items, -1)).toBe(true);
    expect(page.positions.every((p) => p === 'end')).toBe(true);
  });

  it('reads a whole list, every shard, in the order one Query would give', async () => {
    // Act
    const all = await queryAllOf(ranges);

    // Assess
    expect(sorted(all.map((r) => r.n))).toEqual(sorted(ascending));
    expect(inOrder(all.map((r) => r.n))).toBe(true);
  });

  it('refuses a cursor of another list, of another shard count, outside the range, or damaged', async () => {
    // Prepare
    const first = await readMergedPage<Row>(ranges, {}, { limit: 3 });
    const entries = JSON.parse(Buffer.from(first.nextCursor!, 'base64url').toString('utf8')) as unknown[];
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const queries = ranges.map((range) => ({ ...range }));
    const bad = [
      encode(entries.slice(1)),
      encode([...entries, 1]),
      encode(entries.map(() => ['MERGEITEM#x', 'ITEM', 'WORKER#2026'])),
      encode(entries.map(() => ['MERGEITEM#x', 'ITEM'])),
      encode(entries.map(() => [5, 'ITEM', 'AT#001'])),
      encode({ pk: 'MERGEITEM#x', sk: 'ITEM', gsi1pk: ranges[0]!.pk, gsi1sk: 'AT#001' }),
      'not-json',
    ];

    // Act / Assess
    for (const cursor of bad) expect(() => decodeMergedCursor(queries, cursor)).toThrow(new BadRequestError(CURSOR_MESSAGE));
    expect(decodeMergedCursor(queries, first.nextCursor!)).toHaveLength(SHARDS);
  });
});
