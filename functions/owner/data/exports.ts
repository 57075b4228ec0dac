import { invoiceEntity, jobEntity, type InvoiceItem, type JobItem, type KeyRange } from '../../../shared/entities';
import { MAX_EXPORT_ROWS } from '../../../shared/schemas/admin';
import { BadRequestError } from '../../common/errors';
import { orderOf, queryPage, type PageStart } from '../../common/data/query';
import { declareTableUse } from '../../../shared/entities';

/**
 * The rows of a CSV export: the range's days of a time-sorted list, read shard after shard (the
 * list is write-sharded: shared/entities/shards.ts) page by page, then put in order, and refused
 * (400, nothing half-written) past MAX_EXPORT_ROWS, so an export never reads more than a bounded
 * number of items whatever the range or the number of shards.
 */
const PAGE = 500;

async function rowsOf<T>(shards: readonly KeyRange<T>[], prefix: string, from: string, to: string, what: string): Promise<T[]> {
  const rows: T[] = [];
  // '~' sorts after every character of an ISO time, so the whole of `to` is included.
  const days = { between: [`${prefix}${from}`, `${prefix}${to}~`] as const };
  for (const shard of shards) {
    let start: PageStart | undefined;
    do {
      const page = await queryPage({ ...shard, sk: days, limit: Math.min(PAGE, MAX_EXPORT_ROWS + 1 - rows.length) }, start);
      rows.push(...page.items);
      if (rows.length > MAX_EXPORT_ROWS) {
        throw new BadRequestError(`More than ${MAX_EXPORT_ROWS} ${what} from ${from} to ${to}: choose a shorter range.`);
      }
      start = page.next;
    } while (start);
  }
  const order = orderOf(shards[0] ?? {});
  return rows.sort((a, b) => order(a as object, b as object));
}

export const exportsRepo = {
  /** The jobs sent from `from` to `to` (days, UTC, both included), oldest first. */
  jobs: (from: string, to: string) => rowsOf<JobItem>(jobEntity.indexes.all.ranges(), 'JOB#', from, to, 'jobs'),
  /** The invoices paid from `from` to `to`, oldest payment first. */
  payments: (from: string, to: string) => rowsOf<InvoiceItem>(invoiceEntity.indexes.paid.ranges(), 'PAID#', from, to, 'payments'),
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [invoiceEntity, jobEntity] });
