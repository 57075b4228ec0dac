import type { BookingItem, InvoiceItem, JobItem } from '../../../shared/entities';
import { bookingEntity, invoiceEntity, jobEntity } from '../../../shared/entities';
import { applyUpdate, lostRace } from '../../common/data/write';
import { updateOf } from '../../common/data/expressions';
import { queryPage, type PageStart } from '../../common/data/query';
import { declareTableUse } from '../../../shared/entities';

/**
 * What a customer identity has filed under it (the customer's partition of their bookings, requests
 * and hires, and invoices), and moving it to another identity ("Find my requests").
 */
type Filed = BookingItem | JobItem | InvoiceItem;

/** Items read per page of an identity's partition. */
export const REFILE_PAGE_SIZE = 100;
/**
 * Pages of one identity's partition a gathering reads: 1,000 items. What it moves leaves the
 * partition, so a gathering cut short (or past the bound) continues with what is left at the next
 * link; what it leaves (another identity's items made without the address) is read again each
 * time, up to this bound.
 */
export const MAX_REFILE_PAGES = 10;
/** Moves written at once. */
const PARALLEL_MOVES = 10;

/** Which of an identity's items to move. */
export type Choose = (items: readonly Filed[]) => Filed[];

/** What a gathering moved, by kind. */
export interface Moved {
  requests: number;
  bookings: number;
  invoices: number;
}

export const noneMoved = (): Moved => ({ requests: 0, bookings: 0, invoices: 0 });

/**
 * The crew members of the moved leads: jobs out of the customer's partition that carry the customer
 * too (their invoices do), with what files them (the crew they share with their lead).
 */
function crewMembers(jobs: readonly JobItem[]): Pick<JobItem, 'id' | 'crew'>[] {
  return jobs.flatMap((job) => (job.crew && job.crew.leadId === job.id ? job.crew.jobIds.filter((id) => id !== job.id).map((id) => ({ id, crew: job.crew })) : []));
}

/**
 * Re-files one item to `to`: its customer and, where its entity files it under its customer, its
 * partition there (`filing`: the item as read, or what that filing reads of a crew member, which
 * stays out), only if it is still `from`'s, so a repeat or a race moves it once. False when it was
 * not `from`'s any more.
 */
async function moveOne(
  entity: typeof jobEntity | typeof bookingEntity | typeof invoiceEntity,
  key: { pk: string; sk: string },
  from: string,
  to: string,
  filing: { stored: Filed } | { known: Partial<Filed> },
): Promise<boolean> {
  try {
    await applyUpdate(
      updateOf<Filed>(entity, key, {
        set: { customerId: to },
        ...filing,
        if: (c) => c.eq('customerId', from),
      }),
    );
    return true;
  } catch (error) {
    if (lostRace(error)) return false;
    throw error;
  }
}

async function inBatches<T>(items: readonly T[], each: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL_MOVES) await Promise.all(items.slice(i, i + PARALLEL_MOVES).map(each));
}

export const customerItemsRepo = {
  /**
   * Moves what `choose` picks of `from`'s items to `to` (read at most MAX_REFILE_PAGES pages):
   * each move conditional on the item still being `from`'s, so running it again (a gathering cut
   * short, a second link) moves only what is left. A moved lead takes its crew's jobs along.
   */
  async refile(from: string, to: string, choose: Choose, moved: Moved = noneMoved()): Promise<Moved> {
    // Read first, then choose over all of it: a job's invoice sorts before the job (INVOICE# < REQUEST#).
    const items: Filed[] = [];
    let start: PageStart | undefined;
    for (let page = 0; page < MAX_REFILE_PAGES; page++) {
      // The whole partition (bookings, requests and invoices alike), not one sort prefix.
      const read = await queryPage<Filed>({ ...jobEntity.indexes.customerRequests.range(from), sk: undefined, limit: REFILE_PAGE_SIZE }, start);
      items.push(...read.items);
      if (!read.next) break;
      start = read.next;
    }
    const chosen = choose(items);
    await inBatches(chosen, async (item) => {
      const entity = item.entity === 'job' ? jobEntity : item.entity === 'booking' ? bookingEntity : invoiceEntity;
      if (!(await moveOne(entity, { pk: item.pk, sk: item.sk }, from, to, { stored: item }))) return;
      if (item.entity === 'job') moved.requests++;
      else if (item.entity === 'booking') moved.bookings++;
      else moved.invoices++;
    });
    const leads = chosen.filter((item): item is JobItem => item.entity === 'job');
    await inBatches(crewMembers(leads), async (member) => void (await moveOne(jobEntity, jobEntity.key(member.id), from, to, { known: member })));
    return moved;
  },
};

/** Every item: an identity the browser proved is its own gives all it has. */
export const everything: Choose = (items) => [...items];

/**
 * The items made with this address: jobs that carry it, bookings that carry it or whose job does,
 * invoices of those jobs (a crew's lines by their member jobs) or that carry it themselves.
 */
export function madeWith(email: string): Choose {
  const same = (value: string | null | undefined) => typeof value === 'string' && value.trim().toLowerCase() === email;
  return (items) => {
    const jobs = items.filter((item): item is JobItem => item.entity === 'job' && same(item.customerEmail));
    const jobIds = new Set([...jobs.map((job) => job.id), ...crewMembers(jobs)]);
    const bookings = items.filter(
      (item): item is BookingItem => item.entity === 'booking' && (same(item.email) || (item.jobId !== undefined && jobIds.has(item.jobId))),
    );
    const invoices = items.filter((item): item is InvoiceItem => item.entity === 'invoice' && (jobIds.has(item.jobId) || same(item.customerEmail)));
    return [...jobs, ...bookings, ...invoices];
  };
}

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [bookingEntity, invoiceEntity, jobEntity], writes: [bookingEntity, invoiceEntity, jobEntity] });
