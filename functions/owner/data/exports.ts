import { invoiceEntity, jobEntity, type InvoiceItem, type JobItem, type KeyRange } from '../../../shared/entities';
import { MAX_EXPORT_ROWS } from '../../../shared/schemas/admin';
import { BadRequestError } from '../../common/errors';
import { queryPage, type PageStart } from '../../common/data/query';
import { declareTableUse } from '../../../shared/entities';

/**
 * The rows of a CSV export: one time-sorted partition read page by page from the range's first day,
 * stopping at its last day, and refused (400, nothing half-written) past MAX_EXPORT_ROWS, so an
 * export never reads more than a bounded number of items whatever the range.
 */
const PAGE = 500;

async function rowsOf<T>(range: KeyRange<T>, prefix: string, from: string, to: string, dayOf: (item: T) => string, what: string): Promise<T[]> {
  const rows: T[] = [];
  let start: PageStart | undefined;
  do {
    const page = await queryPage({ ...range, sk: { ge: `${prefix}${from}` }, limit: PAGE }, start);
    for (const item of page.items) {
      if (dayOf(item) > to) return rows;
      rows.push(item);
      if (rows.length > MAX_EXPORT_ROWS) {
        throw new BadRequestError(`More than ${MAX_EXPORT_ROWS} ${what} from ${from} to ${to}: choose a shorter range.`);
      }
    }
    start = page.next;
  } while (start);
  return rows;
}

export const exportsRepo = {
  /** The jobs sent from `from` to `to` (days, UTC, both included), oldest first. */
  jobs: (from: string, to: string) =>
    rowsOf<JobItem>(jobEntity.indexes.all.range(), 'JOB#', from, to, (job) => job.createdAt.slice(0, 10), 'jobs'),
  /** The invoices paid from `from` to `to`, oldest payment first. */
  payments: (from: string, to: string) =>
    rowsOf<InvoiceItem>(invoiceEntity.indexes.paid.range(), 'PAID#', from, to, (invoice) => (invoice.paidAt ?? '').slice(0, 10), 'payments'),
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [invoiceEntity, jobEntity] });
