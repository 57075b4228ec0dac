import { beforeAll, describe, expect, it } from 'vitest';
import { indexAttributes } from '../../../shared/entities';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { CURSOR_MESSAGE } from '../../../shared/schemas/page';
import { dynamo, tableName } from '../clients';
import { BadRequestError } from '../errors';
import { decodeCursor, encodeCursor, readPage } from './page';

// A partition of its own, so other tests' items never fall into these pages.
const pk = `PAGETEST#${Math.random().toString(36).slice(2)}`;
const range = { pk, sk: { beginsWith: 'ITEM#' } } as const;

describe('reading a list a page at a time', () => {
  beforeAll(async () => {
    for (let i = 0; i < 7; i++) {
      await dynamo.send(new PutCommand({ TableName: tableName, Item: { pk, sk: `ITEM#${i}`, n: i, even: i % 2 === 0 } }));
    }
  });

  it('walks every item exactly once, page by page, and ends with a null cursor', async () => {
    // Prepare / Act
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await readPage<{ n: number }>(range, { limit: 3, cursor });
      seen.push(...page.items.map((i) => i.n));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    // Assess
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(pages).toBe(3);
  });

  it('fills a filtered page from as many reads as it takes, resuming after the last item kept', async () => {
    // Act
    const first = await readPage<{ n: number; even: boolean }>({ ...range, filter: (c) => c.eq('even', true) }, { limit: 2 });
    const rest = await readPage<{ n: number; even: boolean }>({ ...range, filter: (c) => c.eq('even', true) }, { limit: 2, cursor: first.nextCursor! });
    // Assess
    expect(first.items.map((i) => i.n)).toEqual([0, 2]);
    expect(rest.items.map((i) => i.n)).toEqual([4, 6]);
  });

  it('refuses a cursor of another partition, a damaged one and one with extra attributes', () => {
    // Prepare
    const other = encodeCursor({ pk: 'WORKER#someone', sk: 'PROFILE' });
    const extra = encodeCursor({ pk, sk: 'ITEM#1', [indexAttributes('gsi1').partitionKey]: 'X' });
    // Act / Assess
    for (const cursor of [other, extra, 'not-json', encodeCursor({ pk, sk: 5 } as never)]) {
      expect(() => decodeCursor(range, cursor)).toThrow(new BadRequestError(CURSOR_MESSAGE));
    }
    expect(decodeCursor(range, encodeCursor({ pk, sk: 'ITEM#1' }))).toEqual({ pk, sk: 'ITEM#1' });
  });
});
