import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { KeyRange } from '../../../shared/entities';
import { table } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { Placeholders, renderCondition, type ConditionOf } from './expressions';

/**
 * Reading a key range: one partition of the table or of a GSI, optionally narrowed by sort key
 * (an entity's `range(...)`, or one of its access patterns'). A Query, never a Scan: a Scan reads
 * the whole table, and the functions' IAM policies refuse it anyway.
 */
export interface Query<T> extends KeyRange<T> {
  /** Descending sort key order (newest first, for the time-sorted keys). */
  newestFirst?: boolean;
  /**
   * At most this many items, over as many pages as it takes. DynamoDB counts its Limit before a
   * filter, so with `filter` each page reads only what is still missing: leave it out there.
   */
  limit?: number;
  consistent?: boolean;
  /** Attributes to read, comma separated (plain attribute names). */
  projection?: string;
  /** Which items of the range to keep (a FilterExpression: the reads still count every item). */
  filter?: ConditionOf<T>;
}

/** Where the next page starts (DynamoDB's LastEvaluatedKey); absent after the last page. */
export type PageStart = Record<string, unknown>;

/** Where the page after `item` starts in `range`: the item's primary key and, on a GSI, its keys there. */
export function startAfter(range: KeyRange, item: object): PageStart {
  const stored = item as Record<string, unknown>;
  const index = range.index ? table.indexes.find((i) => i.name === range.index) : undefined;
  const attributes = [table.partitionKey, table.sortKey, ...(index ? [index.partitionKey, index.sortKey] : [])];
  return Object.fromEntries(attributes.map((a) => [a, stored[a]]));
}

function commandOf<T>(query: Query<T>, start: PageStart | undefined, limit: number | undefined): QueryCommand {
  const p = new Placeholders();
  const index = query.index ? table.indexes.find((i) => i.name === query.index) : undefined;
  const key = [`${p.name(index?.partitionKey ?? table.partitionKey)} = ${p.value(query.pk)}`];
  const sortKey = index?.sortKey ?? table.sortKey;
  const range = query.sk;
  if (range && 'beginsWith' in range) key.push(`begins_with(${p.name(sortKey)}, ${p.value(range.beginsWith)})`);
  if (range && 'lt' in range) key.push(`${p.name(sortKey)} < ${p.value(range.lt)}`);
  if (range && 'ge' in range) key.push(`${p.name(sortKey)} >= ${p.value(range.ge)}`);
  if (range && 'between' in range) key.push(`${p.name(sortKey)} BETWEEN ${p.value(range.between[0])} AND ${p.value(range.between[1])}`);
  const filter = query.filter && renderCondition(query.filter, p);
  return new QueryCommand({
    TableName: tableName,
    IndexName: query.index,
    KeyConditionExpression: key.join(' AND '),
    ...(filter ? { FilterExpression: filter } : {}),
    ExpressionAttributeNames: p.names,
    ExpressionAttributeValues: p.values,
    ScanIndexForward: !query.newestFirst,
    ConsistentRead: query.consistent,
    ProjectionExpression: query.projection,
    Limit: limit,
    ExclusiveStartKey: start,
  });
}

/** One page of the range from `start` (the first page without it): its items and where the next one starts. */
export async function queryPage<T>(query: Query<T>, start?: PageStart): Promise<{ items: T[]; next?: PageStart }> {
  const out = await dynamo.send(commandOf(query, start, query.limit));
  return { items: (out.Items ?? []) as T[], ...(out.LastEvaluatedKey ? { next: out.LastEvaluatedKey } : {}) };
}

/** Every item of the range (up to `limit`), page after page. */
export async function queryAll<T>(query: Query<T>): Promise<T[]> {
  const items: T[] = [];
  let start: PageStart | undefined;
  do {
    const out = await dynamo.send(commandOf(query, start, query.limit === undefined ? undefined : query.limit - items.length));
    items.push(...((out.Items ?? []) as T[]));
    start = out.LastEvaluatedKey;
  } while (start && (query.limit === undefined || items.length < query.limit));
  return items;
}

/**
 * The order a Query of `query` returns items in, for merging several ranges of one index as one
 * Query of them all would: by the sort key, newest first when the query asks. DynamoDB promises no
 * order among an index's equal sort keys; the table's key breaks the tie so a merge is the same
 * on every read.
 */
export function orderOf(query: Pick<Query<unknown>, 'index' | 'newestFirst'>): (a: object, b: object) => number {
  const index = query.index ? table.indexes.find((i) => i.name === query.index) : undefined;
  const attributes = [...(index ? [index.sortKey] : []), table.partitionKey, table.sortKey];
  const direction = query.newestFirst ? -1 : 1;
  return (a, b) => {
    for (const attribute of attributes) {
      const x = String((a as Record<string, unknown>)[attribute] ?? '');
      const y = String((b as Record<string, unknown>)[attribute] ?? '');
      if (x !== y) return (x < y ? -1 : 1) * direction;
    }
    return 0;
  };
}

/**
 * Every item of several ranges of one index (the shards of a write-sharded list, each narrowed
 * alike by `query`), in the order one Query of them all would give: a queryAll of each shard.
 */
export async function queryAllOf<T>(ranges: readonly KeyRange<T>[], query: Omit<Query<T>, 'index' | 'pk' | 'limit'> = {}): Promise<T[]> {
  const shards = await Promise.all(ranges.map((range) => queryAll<T>({ ...range, ...query })));
  const order = orderOf({ ...ranges[0], ...query });
  return shards.flat().sort((a, b) => order(a as object, b as object));
}

/** How many items the range holds (Select COUNT, page after page). */
export async function countAll(range: KeyRange): Promise<number> {
  let count = 0;
  let start: PageStart | undefined;
  do {
    const command = commandOf(range, start, undefined);
    command.input.Select = 'COUNT';
    const out = await dynamo.send(command);
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}
