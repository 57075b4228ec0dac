import type { ItemKey, KeyRange } from '../../../shared/entities';
import { batchWrite } from '../data/batch';
import { queryPage, type PageStart } from '../data/query';
import { declareTableUse } from '../../../shared/entities';

/**
 * Deletes the rows a person has under one gsi1 range (their sessions, their device cookies: an
 * entity's `of` pattern), newest first, sparing the `spare` newest and any named in `keep`. It
 * reads page after page: one Query page stops at 1 MB, a few thousand rows, and every row past it
 * would otherwise survive. Each page's rows go at once (BatchWrite, retrying what DynamoDB leaves
 * unprocessed), so a person with very many rows never sits in memory whole.
 */
export async function deleteRowsOf(
  range: KeyRange<ItemKey>,
  { keep = [], spare = 0 }: { keep?: readonly string[]; spare?: number } = {},
): Promise<void> {
  let spared = 0;
  let start: PageStart | undefined;
  do {
    const page = await queryPage({ ...range, newestFirst: true, projection: 'pk, sk' }, start);
    const doomed: ItemKey[] = [];
    for (const row of page.items) {
      if (keep.includes(row.pk)) continue;
      if (spared < spare) {
        spared += 1;
        continue;
      }
      doomed.push({ pk: row.pk, sk: row.sk });
    }
    await batchWrite([], doomed);
    start = page.next;
  } while (start);
}

/** Touches the table only at keys its callers give, so their declarations cover it (infra/table-grants.ts). */
export const tableUse = declareTableUse({});
