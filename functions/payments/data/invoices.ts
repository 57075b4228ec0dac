import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { invoiceAmounts, roundHours, type CardFeeRates, type PayoutStatus } from '../../../shared/domain/invoice';
import { invoiceEntity, jobEntity, type InvoiceItem, type KeyRange, type Unindexed } from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { batchGet } from '../../common/data/batch';
import { mergePage, positionsAfter } from '../../common/data/page';
import { queryAll } from '../../common/data/query';
import type { JobItem } from '../../jobs/data/jobs';
import { isNew, putOf, updateOf, type UpdateSpec } from '../../common/data/expressions';
import { writeTogether, WriteCancelled, type WriteAction } from '../../common/data/transact';
import { tryUpdate } from '../../common/data/write';
import { jobHistory, workerActor } from '../../jobs/data/job-history';
import { stats, writeCounted } from '../../owner/data/stats';
import { isId } from '../../../shared/schemas/id';
import { declareTableUse } from '../../../shared/entities';

export type { InvoiceItem } from '../../../shared/entities';

/**
 * Invoices: one per job, written together with the job's `invoiceId`
 * (conditional on its absence and on the customer's approval), so two submissions make one
 * invoice. Money in cents. Payment and payout fields move only by conditional writes from the
 * Stripe webhook, so a repeated or late event cannot pay twice or un-pay.
 */
export type NewInvoice = Omit<
  Unindexed<InvoiceItem>,
  | 'pk' | 'sk' | 'entity'
  | 'paymentStatus' | 'workVerified' | 'workVerifiedAt' | 'stripeSessionId' | 'checkoutAttempts'
  | 'stripePaymentIntentId' | 'paidAt' | 'payoutStatus' | 'payoutAccountId' | 'transferId' | 'updatedAt'
>;

/**
 * `workVerifiedAt`: when the customer approved the finished work. Approving the work is the
 * verification payment needs, so an invoice of approved work is verified from the start; only
 * invoices made before that rule wait for the invoice's own Verify Work, and a crew's lines wait
 * for the bill's one Verify (functions/payments/verify-request-bill.ts).
 */
export function invoiceItem(input: NewInvoice, workVerifiedAt: string | null = null): InvoiceItem {
  return invoiceEntity.withIndexKeys({
    ...invoiceEntity.key(input.id),
    entity: 'invoice',
    ...input,
    paymentStatus: 'pending',
    workVerified: workVerifiedAt !== null,
    workVerifiedAt,
    stripeSessionId: null,
    checkoutAttempts: 0,
    stripePaymentIntentId: null,
    paidAt: null,
    payoutStatus: 'unpaid',
    payoutAccountId: null,
    transferId: null,
    updatedAt: input.createdAt,
  });
}

/**
 * The rush fee this job's pro charges: the estimate's as-soon-as-possible fee for one pro (a crew's
 * estimate priced it for every pro), 0 for a scheduled job (its estimate has none) or one sent
 * without an estimate.
 */
export function rushFeeOf(job: Pick<JobItem, 'estimate'>): number {
  if (!job.estimate) return 0;
  return Math.round(job.estimate.rushFee / (job.estimate.workerCount ?? 1));
}

/** What the estimate said this job would cost the customer: a crew's line, this pro's part of it; null without one. */
function estimatedTotalOf(job: Pick<JobItem, 'estimate' | 'crew'>): number | null {
  if (!job.estimate) return null;
  if (!job.crew) return job.estimate.totalCost;
  return Math.round(job.estimate.totalCost / (job.estimate.workerCount ?? job.crew.size));
}

/**
 * The invoice of a job the worker invoices: the job's customer, service and place, the worker's
 * name, the agreed rate, the rush fee the job was sent with; the total and the fee split computed
 * here in cents. A crew's line carries no card fee (its bill's one charge does) and names the
 * request the bill is paid through.
 */
export function invoiceForJob(
  job: JobItem,
  worker: { id: string; fullName: string; hourlyRate: number },
  input: { id: string; laborHours: number; materialsCents: number; notes: string | null; feePercent: number; cardFee: CardFeeRates; now: string },
): InvoiceItem {
  const hourlyRate = job.hourlyRate ?? worker.hourlyRate;
  const laborHours = roundHours(input.laborHours);
  const rushFee = rushFeeOf(job);
  const amounts = invoiceAmounts({
    laborHours,
    hourlyRateCents: hourlyRate,
    rushCents: rushFee,
    materialsCents: input.materialsCents,
    feePercent: input.feePercent,
    cardFee: job.crew ? null : input.cardFee,
  });
  return invoiceItem({
    id: input.id,
    jobId: job.id,
    customerId: job.customerId,
    customerEmail: job.customerEmail,
    workerId: worker.id,
    workerName: worker.fullName,
    customerName: job.customerName,
    service: job.service,
    location: job.address,
    description: job.description,
    laborHours,
    hourlyRate,
    materialsCost: amounts.materialsCents,
    rushFee: amounts.rushCents,
    transactionFee: amounts.transactionFeeCents,
    estimatedTotal: estimatedTotalOf(job),
    ...(job.crew ? { crewRequestId: job.crew.leadId } : {}),
    totalAmount: amounts.totalCents,
    platformFee: amounts.platformFeeCents,
    workerShare: amounts.workerShareCents,
    feePercent: input.feePercent,
    notes: input.notes,
    createdAt: input.now,
    // A crew's line waits for the bill's one Verify (the customer checks every pro's charges together).
  }, !job.crew && job.verificationStatus === 'approved' ? (job.verificationAt ?? input.now) : null);
}

/** The invoice was not written: `job` is the job as it is now, for the caller's 4xx. */
export class InvoiceRefused extends Error {
  constructor(readonly job: JobItem | undefined) {
    super('Invoice refused');
    this.name = 'InvoiceRefused';
  }
}

const newestFirst = (range: KeyRange<InvoiceItem>) => queryAll({ ...range, newestFirst: true });

/** A conditional change of one invoice: the invoice after it, or undefined when its condition no longer holds. */
function updateIf(id: string, spec: UpdateSpec<InvoiceItem>): Promise<InvoiceItem | undefined> {
  return tryUpdate(updateOf(invoiceEntity, invoiceEntity.key(id), spec));
}

export const invoicesRepo = {
  /** The invoice and the job's invoiceId together: only for the job's worker, after approval, once. */
  /** The invoice with its job's invoiceId; `together` are writes stored with them (the customer's mail). */
  async create(invoice: InvoiceItem, together: WriteAction[] = []): Promise<void> {
    try {
      await writeTogether([
        ...together,
        {
          Update: updateOf(jobEntity, jobEntity.key(invoice.jobId), {
            set: { invoiceId: invoice.id, updatedAt: invoice.createdAt },
            if: (c) => c.and(c.eq('state', 'verified'), c.eq('acceptedBy', invoice.workerId), c.notExists('invoiceId')),
          }),
        },
        { Put: putOf(invoiceEntity, invoice, isNew) },
        jobHistory.putAction(invoice.jobId, {
          type: 'invoiced',
          actor: workerActor(invoice.workerId, invoice.workerName),
          workerId: invoice.workerId,
          detail: `Invoice #${invoice.id.slice(-8).toUpperCase()}`,
          at: invoice.createdAt,
        }),
      ]);
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: jobEntity.key(invoice.jobId), ConsistentRead: true }));
      throw new InvoiceRefused(out.Item as JobItem | undefined);
    }
  },

  async findById(id: string): Promise<InvoiceItem | undefined> {
    if (!isId(id)) return undefined;
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: invoiceEntity.key(id), ConsistentRead: true }));
    return out.Item as InvoiceItem | undefined;
  },

  async findMany(ids: readonly string[]): Promise<InvoiceItem[]> {
    return batchGet<InvoiceItem>([...new Set(ids)].map((id) => invoiceEntity.key(id)));
  },

  /** Newest first. */
  listForCustomer: (customerId: string) => newestFirst(invoiceEntity.indexes.customerInvoices.range(customerId)),
  listForWorker: (workerId: string) => newestFirst(invoiceEntity.indexes.workerInvoices.range(workerId)),
  /**
   * One page of every invoice, newest first, from just after `after` (the last invoice of the
   * page before): every shard of the list resumes at its key and index key, the place it would
   * hold in each, so equal timestamps never skip one, and the shards are merged as readMergedPage does.
   */
  async pageOfAll(limit: number, after?: InvoiceItem): Promise<InvoiceItem[]> {
    const queries = invoiceEntity.indexes.all.ranges().map((range) => ({ ...range, newestFirst: true }));
    const page = await mergePage<InvoiceItem>(queries, after ? positionsAfter(queries, after) : queries.map(() => 'start' as const), limit);
    return page.items;
  },

  /** Verify Work: the customer accepts the invoice's work and charges. Once; false if already. */
  async markWorkVerified(id: string, customerId: string, now: string): Promise<InvoiceItem | undefined> {
    return updateIf(id, {
      set: { workVerified: true, workVerifiedAt: now, updatedAt: now },
      if: (c) => c.and(c.exists('pk'), c.eq('customerId', customerId), c.eq('workVerified', false)),
    });
  },

  /**
   * Records a Checkout session made for this invoice, if nobody paid it or recorded another since
   * `attempts` was read (so two clicks never leave two sessions on one invoice).
   */
  async recordCheckout(id: string, input: { attempts: number; sessionId: string; now: string }): Promise<InvoiceItem | undefined> {
    return updateIf(id, {
      set: { stripeSessionId: input.sessionId, checkoutAttempts: input.attempts + 1, updatedAt: input.now },
      if: (c) => c.and(c.eq('checkoutAttempts', input.attempts), c.ne('paymentStatus', 'paid')),
    });
  },

  /** checkout.session.completed with an async method still settling: processing, unless already settled. */
  async markProcessing(id: string, sessionId: string, now: string): Promise<InvoiceItem | undefined> {
    return updateIf(id, {
      set: { paymentStatus: 'processing', stripeSessionId: sessionId, updatedAt: now },
      if: (c) => c.oneOf('paymentStatus', ['pending', 'failed']),
    });
  },

  /** The money arrived: paid once, whatever order the events came in. */
  async markPaid(
    id: string,
    input: { sessionId: string; paymentIntentId: string | null; now: string; payoutStatus: PayoutStatus; payoutAccountId: string | null },
  ): Promise<InvoiceItem | undefined> {
    const invoice = await invoicesRepo.findById(id);
    if (!invoice || invoice.paymentStatus === 'paid') return undefined;
    // The owner's figures move in the same write (the money, the funnel's paid step, the pro's
    // earnings), so a second delivery of the event, refused by the condition, counts nothing.
    const counters = [
      ...stats.paymentSettled(input.now, invoice, input.payoutStatus === 'held'),
      stats.workerEarned(invoice.workerId, invoice.workerShare),
    ];
    const update = updateOf(invoiceEntity, invoiceEntity.key(id), {
      set: {
        paymentStatus: 'paid',
        paidAt: input.now,
        stripeSessionId: input.sessionId,
        stripePaymentIntentId: input.paymentIntentId,
        payoutStatus: input.payoutStatus,
        payoutAccountId: input.payoutAccountId,
        updatedAt: input.now,
      },
      if: (c) => c.and(c.exists('pk'), c.ne('paymentStatus', 'paid')),
    });
    try {
      await writeCounted([{ Update: update }, ...counters]);
    } catch (error) {
      if (error instanceof WriteCancelled) return undefined;
      throw error;
    }
    return invoicesRepo.findById(id);
  },

  /**
   * The right to announce this payment, taken once: a webhook delivery retried after failing
   * midway finishes the work without telling anyone twice.
   */
  async claimPaidNotice(id: string, now: string): Promise<boolean> {
    const claimed = await updateIf(id, {
      set: { paidNoticeAt: now },
      if: (c) => c.and(c.eq('paymentStatus', 'paid'), c.notExists('paidNoticeAt')),
    });
    return Boolean(claimed);
  },

  /** An async payment failed: the customer may try again. Never touches a paid invoice. */
  async markFailed(id: string, sessionId: string, now: string): Promise<InvoiceItem | undefined> {
    return updateIf(id, {
      set: { paymentStatus: 'failed', updatedAt: now },
      if: (c) => c.and(c.eq('stripeSessionId', sessionId), c.oneOf('paymentStatus', ['pending', 'processing'])),
    });
  },

  /** The session expired unpaid: forget it, so the next Pay makes a fresh one. */
  async forgetSession(id: string, sessionId: string, now: string): Promise<InvoiceItem | undefined> {
    return updateIf(id, {
      set: { stripeSessionId: null, updatedAt: now },
      if: (c) => c.and(c.eq('stripeSessionId', sessionId), c.ne('paymentStatus', 'paid')),
    });
  },

  /** A held share went to the worker's account: once (conditional on still being held). */
  async markTransferred(id: string, input: { transferId: string; accountId: string; now: string }): Promise<InvoiceItem | undefined> {
    const invoice = await invoicesRepo.findById(id);
    if (!invoice || invoice.payoutStatus !== 'held') return undefined;
    const update = updateOf(invoiceEntity, invoiceEntity.key(id), {
      set: { payoutStatus: 'transferred', transferId: input.transferId, payoutAccountId: input.accountId, updatedAt: input.now },
      if: (c) => c.eq('payoutStatus', 'held'),
    });
    try {
      // No longer held in the owner's figures, once (conditional on still being held).
      await writeCounted([{ Update: update }, ...stats.payoutReleased(input.now, invoice.workerShare)]);
    } catch (error) {
      if (error instanceof WriteCancelled) return undefined;
      throw error;
    }
    return invoicesRepo.findById(id);
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [invoiceEntity, jobEntity], writes: [invoiceEntity, jobEntity] });
