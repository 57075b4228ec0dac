import type { JobState } from '../../../shared/domain/booking-status';
import { dispatchCategoryEntity, jobEntity, workerEntity, workerOfferEntity, type JobItem, type WorkerOfferItem } from '../../../shared/entities';
import type { JobAdminView } from '../../../shared/schemas/admin';
import {
  OFFERED_TOO_LONG_MINUTES,
  attentionReasons,
  type AttentionReason,
  type AvailableWorker,
  type JobAdminDetail,
  type JobAdminFilters,
  type JobAdminPage,
  type JobAdminRow,
} from '../../../shared/schemas/owner-jobs';
import type { Page, PageQuery } from '../../../shared/schemas/page';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../common/clients';
import { canTakeOffer } from '../../jobs/data/dispatch-index';
import { increment, listAppend, putOf, updateOf, type ConditionOf } from '../../common/data/expressions';
import { invoicesRepo, type InvoiceItem } from '../../payments/data/invoices';
import { jobHistory, type JobEventActor } from '../../jobs/data/job-history';
import { jobNumber, jobsRepo } from '../../jobs/data/jobs';
import { readMergedPage, readPage } from '../../common/data/page';
import { queryAllOf } from '../../common/data/query';
import { writeTogether, WriteCancelled } from '../../common/data/transact';
import { workersRepo, type WorkerItem } from '../../workers/data/workers';
import { declareTableUse } from '../../../shared/entities';

/**
 * The owner's jobs: the table (a page of the jobs index, newest first, filtered), "Needs
 * attention" (a page of the sparse open-jobs index, gsi4), one job with its timeline, and the
 * owner's own moves on a job. Every read is one bounded page; every move a conditional write that
 * records its step in the job's history in the same transaction.
 */

/** States the owner may still cancel from: nobody has started the work. */
export const OWNER_CANCELLABLE: readonly JobState[] = ['booked', 'offered', 'accepted', 'en_route', 'arrived'];
/** States an owner's offer can be made in: the job is looking for a pro. */
const OFFERABLE: readonly JobState[] = ['booked', 'offered'];

const attentionOrder = new Map(attentionReasons.map((reason, i) => [reason, i]));

/** Why a job needs the owner now, or null. */
export function attentionOf(job: JobItem, nowMs: number): AttentionReason | null {
  if (job.state === 'verified' && job.paymentFailedAt) return 'payment_failed';
  if ((job.state === 'accepted' || job.state === 'en_route') && job.arriveBy && Date.parse(job.arriveBy) < nowMs) return 'arrival_overdue';
  if (job.state === 'booked' && job.dispatch === 'no_worker_available') return 'no_pro';
  const since = Date.parse(job.searchingSince ?? job.createdAt);
  if ((job.state === 'booked' || job.state === 'offered') && job.dispatch === 'searching' && since < nowMs - OFFERED_TOO_LONG_MINUTES * 60_000) {
    return 'offered_too_long';
  }
  return null;
}

/** The same rule as attentionOf, as a FilterExpression over the open jobs. */
function attentionFilter(nowMs: number): ConditionOf<JobItem> {
  const now = new Date(nowMs).toISOString();
  const cutoff = new Date(nowMs - OFFERED_TOO_LONG_MINUTES * 60_000).toISOString();
  return (c) =>
    c.or(
      c.and(c.eq('state', 'verified'), c.exists('paymentFailedAt')),
      c.and(c.oneOf('state', ['accepted', 'en_route']), c.lt('arriveBy', now)),
      c.and(c.eq('state', 'booked'), c.eq('dispatch', 'no_worker_available')),
      c.and(
        c.oneOf('state', ['booked', 'offered']),
        c.eq('dispatch', 'searching'),
        c.or(c.lt('searchingSince', cutoff), c.and(c.notExists('searchingSince'), c.lt('createdAt', cutoff))),
      ),
    );
}

interface Related {
  workers: Map<string, WorkerItem>;
  invoices: Map<string, InvoiceItem>;
}

/** The pros and invoices a page of jobs names, read together (BatchGet; a page is at most 100 jobs). */
async function relatedTo(jobs: readonly JobItem[], moreWorkerIds: readonly string[] = []): Promise<Related> {
  const workerIds = [...jobs.flatMap((j) => (j.acceptedBy ? [j.acceptedBy] : [])), ...moreWorkerIds];
  const invoiceIds = jobs.flatMap((j) => (j.invoiceId ? [j.invoiceId] : []));
  const [workers, invoices] = await Promise.all([
    workerIds.length ? workersRepo.findMany(workerIds) : [],
    invoiceIds.length ? invoicesRepo.findMany(invoiceIds) : [],
  ]);
  return { workers: new Map(workers.map((w) => [w.id, w])), invoices: new Map(invoices.map((i) => [i.id, i])) };
}

export function toJobAdminRow(job: JobItem, related: Related, nowMs: number): JobAdminRow {
  const invoice = job.invoiceId ? related.invoices.get(job.invoiceId) : undefined;
  return {
    id: job.id,
    number: jobNumber(job),
    category: job.category,
    service: job.service,
    customerName: job.customerName,
    address: job.address,
    hourlyRate: job.hourlyRate ?? null,
    state: job.state,
    dispatch: job.dispatch,
    assignedPro: job.acceptedBy ? { id: job.acceptedBy, name: related.workers.get(job.acceptedBy)?.fullName ?? null } : null,
    offersMade: job.tried?.length ?? 0,
    acceptedAt: job.acceptedAt ?? null,
    arriveBy: job.arriveBy ?? null,
    arrivedAt: job.arrivedAt ?? null,
    startedAt: job.startedAt ?? null,
    endedAt: job.endedAt ?? null,
    totalHours: job.totalHours ?? null,
    invoiceId: job.invoiceId ?? null,
    paymentStatus: invoice?.paymentStatus ?? null,
    createdAt: job.createdAt,
    cancelledAt: job.cancelledAt ?? null,
    attention: attentionOf(job, nowMs),
  };
}

async function rowsOf(page: Page<JobItem>, nowMs: number): Promise<JobAdminPage> {
  const related = await relatedTo(page.items);
  return { items: page.items.map((job) => toJobAdminRow(job, related, nowMs)), nextCursor: page.nextCursor };
}

/** The table's filters as one FilterExpression, or none. Text filters match the stored lower-case text, or (older jobs) the raw attribute. */
function tableFilter(filters: JobAdminFilters): ConditionOf<JobItem> | undefined {
  const { state, category, workerId, customer, search } = filters;
  if (!state && !category && !workerId && !customer && !search) return undefined;
  return (c) =>
    c.and(
      state === 'no_pro' && c.and(c.eq('state', 'booked'), c.eq('dispatch', 'no_worker_available')),
      state !== undefined && state !== 'no_pro' && c.eq('state', state),
      category !== undefined && c.eq('category', category),
      workerId !== undefined && c.eq('acceptedBy', workerId),
      customer !== undefined &&
        c.or(
          c.contains('searchCustomer', customer.toLowerCase()),
          c.contains('customerName', customer),
          c.contains('customerPhone', customer),
          c.contains('customerEmail', customer.toLowerCase()),
        ),
      search !== undefined &&
        c.or(
          c.contains('searchJob', search.toLowerCase()),
          c.contains('address', search),
          c.contains('description', search),
          c.contains('id', search),
        ),
    );
}

/** The sort-key range of the created-date filter (whole days, both included). */
function createdRange(from?: string, to?: string) {
  const lo = from ? `JOB#${from}` : undefined;
  // '~' sorts after every character of an ISO time, so the whole of `to` is included.
  const hi = to ? `JOB#${to}~` : undefined;
  if (lo && hi) return { between: [lo, hi] as const };
  if (lo) return { ge: lo };
  if (hi) return { lt: hi };
  return { beginsWith: 'JOB#' };
}

export const ownerJobs = {
  /** One page of the table: newest first, the date range narrowing the key, the rest filtered within a read budget. */
  async listPage(filters: JobAdminFilters): Promise<JobAdminPage> {
    const filter = tableFilter(filters);
    const page = await readMergedPage<JobItem>(
      jobEntity.indexes.all.ranges(),
      { sk: createdRange(filters.from, filters.to), newestFirst: true, ...(filter ? { filter } : {}) },
      { limit: filters.limit, cursor: filters.cursor },
    );
    return rowsOf(page, Date.now());
  },

  /** One page of the open jobs that need the owner, the most urgent reason first within it. */
  async attentionPage(page: PageQuery): Promise<JobAdminPage> {
    const nowMs = Date.now();
    const found = await readMergedPage<JobItem>(jobEntity.indexes.open.ranges(), { filter: attentionFilter(nowMs) }, page);
    const rows = await rowsOf(found, nowMs);
    rows.items.sort((a, b) => (attentionOrder.get(a.attention!) ?? 9) - (attentionOrder.get(b.attention!) ?? 9));
    return rows;
  },

  /** The job page: the row, its standing offers and every step of its history, pros named. */
  async detail(id: string): Promise<JobAdminDetail | undefined> {
    const job = await jobsRepo.findById(id);
    if (!job) return undefined;
    const events = await jobHistory.list(id);
    const offered = Object.keys(job.offers ?? {});
    const named = [...offered, ...events.flatMap((e) => [e.workerId, e.actor.role === 'worker' ? e.actor.id : null]).filter((w): w is string => Boolean(w))];
    const related = await relatedTo([job], named);
    const nameOf = (workerId: string) => related.workers.get(workerId)?.fullName ?? null;
    const nowMs = Date.now();
    return {
      job: toJobAdminRow(job, related, nowMs),
      description: job.description,
      customerPhone: job.customerPhone,
      customerEmail: job.customerEmail,
      cancelMessage: job.cancelMessage ?? null,
      openOffers: Object.entries(job.offers ?? {})
        .filter(([, expiresAt]) => Date.parse(expiresAt) > nowMs)
        .map(([workerId, expiresAt]) => ({ worker: { id: workerId, name: nameOf(workerId) }, expiresAt })),
      canReoffer: OFFERABLE.includes(job.state),
      canOffer: OFFERABLE.includes(job.state),
      canCancel: OWNER_CANCELLABLE.includes(job.state),
      timeline: events.map((e) => ({
        id: e.id,
        type: e.type,
        at: e.at,
        actor: { ...e.actor, name: e.actor.name ?? (e.actor.role === 'worker' && e.actor.id ? nameOf(e.actor.id) : null) },
        worker: e.workerId ? { id: e.workerId, name: nameOf(e.workerId) } : null,
        detail: e.detail,
      })),
    };
  },

  /**
   * The owner offers the job to one pro: the job moves to 'offered' (out of the unfilled jobs if
   * its search had ended), conditional on the version read, with the step in the same write; then
   * the pro's side of the offer for their list. False when the job changed since it was read.
   */
  async offerTo(job: JobItem, workerId: string, expiresAt: string, actor: JobEventActor, now: string): Promise<boolean> {
    const restarting = job.dispatch === 'no_worker_available';
    try {
      await writeTogether([
        {
          Update: updateOf(jobEntity, jobEntity.key(job.id), {
            set: {
              state: 'offered',
              dispatch: 'searching',
              // Each pro at most once among those tried.
              ...(job.tried.includes(workerId) ? {} : { tried: listAppend([workerId]) }),
              ...(restarting ? { searchingSince: now } : {}),
              version: increment(),
              updatedAt: now,
            },
            setEntries: { offers: { [workerId]: expiresAt } },
            stored: job,
            if: (c) => c.and(c.eq('version', job.version), c.oneOf('state', OFFERABLE)),
          }),
        },
        jobHistory.putAction(job.id, { type: 'offered', actor, workerId, detail: 'Offered by the owner.', at: now }),
      ]);
    } catch (error) {
      if (error instanceof WriteCancelled) return false;
      throw error;
    }
    const item: WorkerOfferItem = {
      ...workerOfferEntity.key(workerId, job.id),
      entity: 'offer',
      jobId: job.id,
      workerId,
      offerExpiresAt: expiresAt,
      expiresAt: Math.ceil(Date.parse(expiresAt) / 1000) + 24 * 3600,
    };
    await dynamo.send(new PutCommand(putOf(workerOfferEntity, item)));
    return true;
  },

  /**
   * The owner cancels a job nobody has started working on: conditional on the version read (so of
   * an owner's cancel and a pro's accept, or two owners' cancels, exactly one lands), freeing the
   * pro who held it in the same write, with the step. False when the job changed since it was read.
   */
  async cancel(job: JobItem, message: string, actor: JobEventActor, now: string): Promise<boolean> {
    try {
      await writeTogether([
        {
          Update: updateOf(jobEntity, jobEntity.key(job.id), {
            set: {
              state: 'cancelled',
              dispatch: 'done',
              cancelledAt: now,
              cancelledBy: 'owner',
              cancelMessage: message,
              offers: {},
              version: increment(),
              updatedAt: now,
            },
            remove: ['arrivalClaim'],
            stored: job,
            if: (c) => c.and(c.eq('version', job.version), c.oneOf('state', OWNER_CANCELLABLE)),
          }),
        },
        ...(job.acceptedBy
          ? [
              {
                Update: updateOf(workerEntity, workerEntity.key(job.acceptedBy), {
                  set: { updatedAt: now },
                  remove: ['activeJobId'],
                  if: (c) => c.eq('activeJobId', job.id),
                }),
              },
            ]
          : []),
        jobHistory.putAction(job.id, { type: 'cancelled', actor, workerId: job.acceptedBy, detail: message, at: now }),
      ]);
      return true;
    } catch (error) {
      if (error instanceof WriteCancelled) return false;
      throw error;
    }
  },

  /** One page of the pros of a trade on call now (the trade's dispatch partition), those free to take a job. */
  async availableWorkers(category: string, page: PageQuery): Promise<Page<AvailableWorker>> {
    const entries = await readPage({ ...dispatchCategoryEntity.range(category) }, page);
    const workers = await workersRepo.findMany(entries.items.map((e) => e.workerId));
    const free = workers.filter((w) => canTakeOffer(w) && w.categories.includes(category)).sort((a, b) => a.fullName.localeCompare(b.fullName));
    return {
      items: free.map((w) => ({ id: w.id, fullName: w.fullName, categories: w.categories, hourlyRate: w.hourlyRate, strikes: w.strikes })),
      nextCursor: entries.nextCursor,
    };
  },

  /**
   * Every job, oldest first (the whole jobs index). Only the analytics' counts and the bench still
   * read it; the owner's screens read pages (listPage).
   */
  async listAll(): Promise<JobAdminView[]> {
    const items = await queryAllOf<JobItem>(jobEntity.indexes.all.ranges());
    return items.map(toJobAdminView);
  },

  async countByState(): Promise<{ byState: Record<string, number>; total: number }> {
    const jobs = await ownerJobs.listAll();
    const byState: Record<string, number> = {};
    for (const job of jobs) byState[job.state] = (byState[job.state] ?? 0) + 1;
    return { byState, total: jobs.length };
  },
};

function toJobAdminView(item: JobItem): JobAdminView {
  return {
    id: item.id,
    category: item.category ?? null,
    customerName: item.customerName ?? null,
    address: item.address ?? null,
    description: item.description ?? null,
    hourlyRate: item.hourlyRate ?? null,
    createdAt: item.createdAt ?? null,
    arrivedAt: item.arrivedAt ?? null,
    startedAt: item.startedAt ?? null,
    endedAt: item.endedAt ?? null,
    state: item.state,
    acceptedBy: item.acceptedBy ?? null,
    totalHours: item.totalHours ?? null,
  };
}

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [dispatchCategoryEntity, jobEntity, workerEntity, workerOfferEntity], writes: [dispatchCategoryEntity, jobEntity, workerEntity, workerOfferEntity] });
