import { table } from '../../../shared/table';
import { CURSOR_MESSAGE, DEFAULT_PAGE_SIZE, type Page, type PageQuery } from '../../../shared/schemas/page';
import { BadRequestError } from '../errors';
import { queryPage, type PageStart, type Query } from './query';

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
