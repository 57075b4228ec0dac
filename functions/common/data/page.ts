import type { KeyRange, SortCondition } from '../../../shared/entities';
import { table } from '../../../shared/table';
import { CURSOR_MESSAGE, DEFAULT_PAGE_SIZE, type Page, type PageQuery } from '../../../shared/schemas/page';
import { BadRequestError } from '../errors';
import { orderOf, queryPage, type PageStart, type Query } from './query';

/**
 * One page of a list for a screen: at most `limit` items (DEFAULT_PAGE_SIZE unless asked), from
 * the cursor the page before answered with. With a `filter`, DynamoDB's Limit counts the items it
 * reads, not the ones it keeps: reading goes on until the page is full or `readBudget` items were
 * read, so a narrow filter answers a short (even empty) page with a cursor instead of reading the
 * whole partition in one call.
 */
export async function readPage<T>(query: Omit<Query<T>, 'limit'>, page: PageQuery, readBudget = 4): Promise<Page<T>> {
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  let start = page.cursor === undefined ? undefined : decodeCursor(query, page.cursor);
  const items: T[] = [];
  let read = 0;
  do {
    const out = await queryPage({ ...query, limit: query.filter ? limit : limit - items.length }, start);
    items.push(...out.items);
    read += query.filter ? limit : out.items.length;
    start = out.next;
  } while (start && items.length < limit && read < limit * readBudget);
  // A filtered read can overshoot the page: the cursor then resumes after the last item kept.
  if (items.length > limit) {
    items.length = limit;
    start = keyOf(query, items[limit - 1] as Record<string, unknown>);
  }
  return { items, nextCursor: start ? encodeCursor(start) : null };
}

/** The attributes a Query of this range resumes from: the table key, plus the index's when it reads one. */
function keyAttributes(query: Pick<Query<unknown>, 'index'>): string[] {
  const index = query.index ? table.indexes.find((i) => i.name === query.index) : undefined;
  return [table.partitionKey, table.sortKey, ...(index ? [index.partitionKey, index.sortKey] : [])];
}

function keyOf(query: Pick<Query<unknown>, 'index'>, item: Record<string, unknown>): PageStart {
  return Object.fromEntries(keyAttributes(query).map((name) => [name, item[name]]));
}

export function encodeCursor(start: PageStart): string {
  return Buffer.from(JSON.stringify(start)).toString('base64url');
}

/**
 * The cursor back into a start key, refused unless it is exactly a key of this range: string
 * values for the range's key attributes only, in the partition the query reads. So a cursor made
 * up or taken from another list can never read outside the list it is given to.
 */
export function decodeCursor(query: Pick<Query<unknown>, 'index' | 'pk'>, cursor: string): PageStart {
  let start: unknown;
  try {
    start = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequestError(CURSOR_MESSAGE);
  }
  const names = keyAttributes(query);
  const index = query.index ? table.indexes.find((i) => i.name === query.index) : undefined;
  const partition = index?.partitionKey ?? table.partitionKey;
  const valid =
    typeof start === 'object' &&
    start !== null &&
    !Array.isArray(start) &&
    Object.keys(start).length === names.length &&
    names.every((name) => typeof (start as Record<string, unknown>)[name] === 'string') &&
    (start as Record<string, unknown>)[partition] === query.pk;
  if (!valid) throw new BadRequestError(CURSOR_MESSAGE);
  return start as PageStart;
}

/**
 * Where one shard of a merged list stands between pages: not read yet, resuming after a key, or
 * read to its end.
 */
export type ShardPosition = 'start' | PageStart | 'end';

/**
 * One page of a write-sharded list (shared/entities/shards.ts): `ranges` are its shards, each
 * narrowed alike by `query` (a sort-key range, an order, a filter). Each shard is read at most one
 * page of `limit` items, the reads merged in the list's order and the first `limit` answered; the
 * cursor holds each shard's own position, so what was read but not answered is read again by the
 * next page, and a page reads at most `ranges.length × limit` items whatever its depth. With a
 * filter, a shard whose read kept too little for the merge to go on is read again, up to
 * `readBudget` reads in all; after that the page answers short, as readPage's does.
 */
export async function readMergedPage<T>(
  ranges: readonly KeyRange<T>[],
  query: Omit<Query<T>, 'index' | 'pk' | 'limit'>,
  page: PageQuery,
  readBudget = 4,
): Promise<Page<T>> {
  const queries = ranges.map((range) => ({ ...range, ...query }));
  const positions = page.cursor === undefined ? queries.map((): ShardPosition => 'start') : decodeMergedCursor(queries, page.cursor);
  const read = await mergePage(queries, positions, page.limit ?? DEFAULT_PAGE_SIZE, readBudget);
  return { items: read.items, nextCursor: read.positions.every((p) => p === 'end') ? null : encodeMergedCursor(queries, read.positions) };
}

interface ShardRead<T> {
  query: Query<T>;
  /** Items read and not yet answered, in the shard's order. */
  buffer: T[];
  /** Where the next read of the shard starts. */
  readFrom: ShardPosition;
  /** Where the shard resumes if the buffer is not answered whole: the last answered item, or where the buffer's read began. */
  resumeAt: ShardPosition;
}

/**
 * The merge behind readMergedPage, from any positions (the invoices' list starts every shard just
 * after one invoice): the page's items and each shard's position after it.
 */
export async function mergePage<T>(
  queries: readonly Query<T>[],
  positions: readonly ShardPosition[],
  limit: number,
  readBudget = 4,
): Promise<{ items: T[]; positions: ShardPosition[] }> {
  const order = orderOf(queries[0] ?? {});
  const shards: ShardRead<T>[] = queries.map((query, i) => ({ query, buffer: [], readFrom: positions[i]!, resumeAt: positions[i]! }));
  const items: T[] = [];
  // A shard whose buffer is empty before its end may hold the next item, unless its read went past
  // it (a filter kept nothing, but the shard is known to hold nothing more up to where it stopped).
  const waiting = (next?: T) =>
    shards.filter(
      (shard) =>
        shard.buffer.length === 0 &&
        shard.readFrom !== 'end' &&
        (next === undefined || shard.readFrom === 'start' || order(next as object, shard.readFrom) >= 0),
    );
  const head = () => {
    let next: ShardRead<T> | undefined;
    for (const shard of shards) {
      if (shard.buffer.length && (!next || order(shard.buffer[0]!, next.buffer[0]!) < 0)) next = shard;
    }
    return next;
  };
  for (let round = 0; round < readBudget; round++) {
    const candidate = head();
    const toRead = waiting(candidate?.buffer[0]);
    if (toRead.length === 0) break;
    await Promise.all(
      toRead.map(async (shard) => {
        const out = await queryPage({ ...shard.query, limit }, shard.readFrom === 'start' ? undefined : (shard.readFrom as PageStart));
        shard.resumeAt = shard.readFrom;
        shard.buffer = out.items;
        shard.readFrom = out.next ?? 'end';
      }),
    );
    while (items.length < limit) {
      const next = head();
      if (!next || waiting(next.buffer[0]).length > 0) break;
      const item = next.buffer.shift()!;
      items.push(item);
      next.resumeAt = keyOf(next.query, item as Record<string, unknown>);
    }
    if (items.length >= limit) break;
  }
  return { items, positions: shards.map((shard) => (shard.buffer.length === 0 ? shard.readFrom : shard.resumeAt)) };
}

/**
 * The start key of every shard just after `item` (an item of one of them), as if each held it: a
 * start key need not name a stored item. Where another shard holds items of exactly `item`'s sort
 * key, DynamoDB's order among them decides which count as after it.
 */
export function positionsAfter(queries: readonly Query<unknown>[], item: object): ShardPosition[] {
  return queries.map((query) => ({ ...keyOf(query, item as Record<string, unknown>), [partitionOf(query)]: query.pk }));
}

function partitionOf(query: Pick<Query<unknown>, 'index'>): string {
  const index = query.index ? table.indexes.find((i) => i.name === query.index) : undefined;
  return index?.partitionKey ?? table.partitionKey;
}

function sortKeyOf(query: Pick<Query<unknown>, 'index'>): string {
  const index = query.index ? table.indexes.find((i) => i.name === query.index) : undefined;
  return index?.sortKey ?? table.sortKey;
}

/**
 * A merged list's cursor: per shard 0 (read to its end), 1 (not read yet) or the values of its
 * start key's attributes but the partition (which the shard names), so eight shards' keys fit
 * MAX_CURSOR_LENGTH.
 */
function encodeMergedCursor(queries: readonly Query<unknown>[], positions: readonly ShardPosition[]): string {
  const entries = positions.map((position, i) => {
    if (position === 'end') return 0;
    if (position === 'start') return 1;
    const partition = partitionOf(queries[i]!);
    return keyAttributes(queries[i]!)
      .filter((name) => name !== partition)
      .map((name) => position[name]);
  });
  return Buffer.from(JSON.stringify(entries)).toString('base64url');
}

function withinSortCondition(value: string, condition: SortCondition | undefined): boolean {
  if (!condition) return true;
  if ('beginsWith' in condition) return value.startsWith(condition.beginsWith);
  if ('lt' in condition) return value < condition.lt;
  if ('ge' in condition) return value >= condition.ge;
  return value >= condition.between[0] && value <= condition.between[1];
}

/**
 * A merged list's cursor back into each shard's position, refused unless it has one entry per
 * shard, each a key of exactly that shard's attributes inside the range the shard reads: a cursor
 * made up or taken from another list can never read outside the list it is given to.
 */
export function decodeMergedCursor(queries: readonly Query<unknown>[], cursor: string): ShardPosition[] {
  let entries: unknown;
  try {
    entries = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequestError(CURSOR_MESSAGE);
  }
  if (!Array.isArray(entries) || entries.length !== queries.length) throw new BadRequestError(CURSOR_MESSAGE);
  return entries.map((entry: unknown, i): ShardPosition => {
    if (entry === 0) return 'end';
    if (entry === 1) return 'start';
    const query = queries[i]!;
    const partition = partitionOf(query);
    const names = keyAttributes(query).filter((name) => name !== partition);
    if (!Array.isArray(entry) || entry.length !== names.length || !entry.every((value) => typeof value === 'string')) {
      throw new BadRequestError(CURSOR_MESSAGE);
    }
    const start: PageStart = { [partition]: query.pk, ...Object.fromEntries(names.map((name, n) => [name, entry[n]])) };
    if (!withinSortCondition(start[sortKeyOf(query)] as string, query.sk)) throw new BadRequestError(CURSOR_MESSAGE);
    return start;
  });
}
