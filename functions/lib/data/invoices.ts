import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { invoiceAmounts, roundHours, type PaymentStatus, type PayoutStatus } from '../../../shared/domain/invoice';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { batchGet } from './batch';
import { queryAll } from './query';
import type { JobItem } from './jobs';
import { writeTogether, WriteCancelled } from './transact';

/**
 * Invoices (customer spec section 3): one per job, written together with the job's `invoiceId`
 * (conditional on its absence and on the customer's approval), so two submissions make one
 * invoice. Money in cents. Payment and payout fields move only by conditional writes from the
 * Stripe webhook, so a repeated or late event cannot pay twice or un-pay.
 */
export interface InvoiceItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  gsi2pk: string;
  gsi2sk: string;
  gsi3pk: string;
  gsi3sk: string;
  entity: 'invoice';
  id: string;
  jobId: string;
  customerId: string;
  customerEmail: string | null;
  workerId: string;
  workerName: string;
  customerName: string;
  service: string;
  location: string;
  description: string;
  laborHours: number;
  hourlyRate: number;
  materialsCost: number;
  totalAmount: number;
  platformFee: number;
  workerShare: number;
  feePercent: number;
  notes: string | null;
  paymentStatus: PaymentStatus;
  workVerified: boolean;
  workVerifiedAt: string | null;
  /** The open (or last) Checkout session and how many were made, for the idempotency key. */
  stripeSessionId: string | null;
  checkoutAttempts: number;
  stripePaymentIntentId: string | null;
  paidAt: string | null;
  /** When the payment was announced to the customer and the worker (once; see claimPaidNotice). */
  paidNoticeAt?: string;
  payoutStatus: PayoutStatus;
  /** The connected account the share went to (destination charge or later transfer). */
  payoutAccountId: string | null;
  transferId: string | null;
  createdAt: string;
  updatedAt: string;
}

export type NewInvoice = Omit<
  InvoiceItem,
  | 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk' | 'gsi3pk' | 'gsi3sk' | 'entity'
  | 'paymentStatus' | 'workVerified' | 'workVerifiedAt' | 'stripeSessionId' | 'checkoutAttempts'
  | 'stripePaymentIntentId' | 'paidAt' | 'payoutStatus' | 'payoutAccountId' | 'transferId' | 'updatedAt'
>;

/**
 * `workVerifiedAt`: when the customer approved the finished work. Approving the work is the
 * verification payment needs, so an invoice of approved work is verified from the start; only
 * invoices made before that rule wait for the invoice's own Verify Work.
 */
export function invoiceItem(input: NewInvoice, workVerifiedAt: string | null = null): InvoiceItem {
  return {
    ...keys.invoice(input.id),
    ...keys.customerInvoices(input.customerId, input.createdAt),
    ...keys.workerInvoices(input.workerId, input.createdAt),
    ...keys.allInvoices(input.createdAt),
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
  };
}

/**
 * The invoice of a job the worker invoices: the job's customer, service and place, the worker's
 * name, the agreed rate; the total and the fee split computed here in cents.
 */
export function invoiceForJob(
  job: JobItem,
  worker: { id: string; fullName: string; hourlyRate: number },
  input: { id: string; laborHours: number; materialsCents: number; notes: string | null; feePercent: number; now: string },
): InvoiceItem {
  const hourlyRate = job.hourlyRate ?? worker.hourlyRate;
  const laborHours = roundHours(input.laborHours);
  const amounts = invoiceAmounts({ laborHours, hourlyRateCents: hourlyRate, materialsCents: input.materialsCents, feePercent: input.feePercent });
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
    totalAmount: amounts.totalCents,
    platformFee: amounts.platformFeeCents,
    workerShare: amounts.workerShareCents,
    feePercent: input.feePercent,
    notes: input.notes,
    createdAt: input.now,
  }, job.verificationStatus === 'approved' ? (job.verificationAt ?? input.now) : null);
}

/** The invoice was not written: `job` is the job as it is now, for the caller's 4xx. */
export class InvoiceRefused extends Error {
  constructor(readonly job: JobItem | undefined) {
    super('Invoice refused');
    this.name = 'InvoiceRefused';
  }
}

function lostRace(error: unknown): boolean {
  return (error as Error)?.name === 'ConditionalCheckFailedException';
}

const newestFirst = (index: 'gsi1' | 'gsi2' | 'gsi3', pk: string) => queryAll<InvoiceItem>({ index, pk, skPrefix: 'INVOICE#', newestFirst: true });

/** Conditional update that answers false, not an error, when its condition no longer holds. */
async function updateIf(input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<InvoiceItem | undefined> {
  try {
    const out = await dynamo.send(new UpdateCommand({ ...input, ReturnValues: 'ALL_NEW' }));
    return out.Attributes as InvoiceItem;
  } catch (error) {
    if (lostRace(error)) return undefined;
    throw error;
  }
}

export const invoicesRepo = {
  /** The invoice and the job's invoiceId together: only for the job's worker, after approval, once. */
  async create(invoice: InvoiceItem): Promise<void> {
    try {
      await writeTogether([
        {
          Update: {
            TableName: tableName,
            Key: keys.job(invoice.jobId),
            UpdateExpression: 'SET invoiceId = :id, updatedAt = :now',
            ConditionExpression: '#state = :verified AND acceptedBy = :w AND attribute_not_exists(invoiceId)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':id': invoice.id, ':now': invoice.createdAt, ':verified': 'verified', ':w': invoice.workerId },
          },
        },
        { Put: { TableName: tableName, Item: invoice, ConditionExpression: 'attribute_not_exists(pk)' } },
      ]);
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.job(invoice.jobId), ConsistentRead: true }));
      throw new InvoiceRefused(out.Item as JobItem | undefined);
    }
  },

  async findById(id: string): Promise<InvoiceItem | undefined> {
    if (!/^[A-Za-z0-9_-]{22}$/.test(id)) return undefined;
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.invoice(id), ConsistentRead: true }));
    return out.Item as InvoiceItem | undefined;
  },

  async findMany(ids: readonly string[]): Promise<InvoiceItem[]> {
    return batchGet<InvoiceItem>([...new Set(ids)].map((id) => keys.invoice(id)));
  },

  /** Newest first. */
  listForCustomer: (customerId: string) => newestFirst('gsi1', keys.customerInvoices(customerId).gsi1pk),
  listForWorker: (workerId: string) => newestFirst('gsi2', keys.workerInvoices(workerId).gsi2pk),
  listAll: () => newestFirst('gsi3', keys.allInvoices().gsi3pk),

  /** Verify Work: the customer accepts the invoice's work and charges. Once; false if already. */
  async markWorkVerified(id: string, customerId: string, now: string): Promise<InvoiceItem | undefined> {
    return updateIf({
      TableName: tableName,
      Key: keys.invoice(id),
      UpdateExpression: 'SET workVerified = :true, workVerifiedAt = :now, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND customerId = :c AND workVerified = :false',
      ExpressionAttributeValues: { ':true': true, ':false': false, ':now': now, ':c': customerId },
    });
  },

  /**
   * Records a Checkout session made for this invoice, if nobody paid it or recorded another since
   * `attempts` was read (so two clicks never leave two sessions on one invoice).
   */
  async recordCheckout(id: string, input: { attempts: number; sessionId: string; now: string }): Promise<InvoiceItem | undefined> {
    return updateIf({
      TableName: tableName,
      Key: keys.invoice(id),
      UpdateExpression: 'SET stripeSessionId = :s, checkoutAttempts = :next, updatedAt = :now',
      ConditionExpression: 'checkoutAttempts = :attempts AND paymentStatus <> :paid',
      ExpressionAttributeValues: { ':s': input.sessionId, ':next': input.attempts + 1, ':attempts': input.attempts, ':now': input.now, ':paid': 'paid' },
    });
  },

  /** checkout.session.completed with an async method still settling: processing, unless already settled. */
  async markProcessing(id: string, sessionId: string, now: string): Promise<InvoiceItem | undefined> {
    return updateIf({
      TableName: tableName,
      Key: keys.invoice(id),
      UpdateExpression: 'SET paymentStatus = :processing, stripeSessionId = :s, updatedAt = :now',
      ConditionExpression: 'paymentStatus IN (:pending, :failed)',
      ExpressionAttributeValues: { ':processing': 'processing', ':pending': 'pending', ':failed': 'failed', ':s': sessionId, ':now': now },
    });
  },

  /** The money arrived: paid once, whatever order the events came in. */
  async markPaid(
    id: string,
    input: { sessionId: string; paymentIntentId: string | null; now: string; payoutStatus: PayoutStatus; payoutAccountId: string | null },
  ): Promise<InvoiceItem | undefined> {
    return updateIf({
      TableName: tableName,
      Key: keys.invoice(id),
      UpdateExpression:
        'SET paymentStatus = :paid, paidAt = :now, stripeSessionId = :s, stripePaymentIntentId = :pi, payoutStatus = :payout, payoutAccountId = :acct, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND paymentStatus <> :paid',
      ExpressionAttributeValues: {
        ':paid': 'paid',
        ':now': input.now,
        ':s': input.sessionId,
        ':pi': input.paymentIntentId,
        ':payout': input.payoutStatus,
        ':acct': input.payoutAccountId,
      },
    });
  },

  /**
   * The right to announce this payment, taken once: a webhook delivery retried after failing
   * midway finishes the work without telling anyone twice.
   */
  async claimPaidNotice(id: string, now: string): Promise<boolean> {
    return Boolean(
      await updateIf({
        TableName: tableName,
        Key: keys.invoice(id),
        UpdateExpression: 'SET paidNoticeAt = :now',
        ConditionExpression: 'paymentStatus = :paid AND attribute_not_exists(paidNoticeAt)',
        ExpressionAttributeValues: { ':paid': 'paid', ':now': now },
      }),
    );
  },

  /** An async payment failed: the customer may try again. Never touches a paid invoice. */
  async markFailed(id: string, sessionId: string, now: string): Promise<InvoiceItem | undefined> {
    return updateIf({
      TableName: tableName,
      Key: keys.invoice(id),
      UpdateExpression: 'SET paymentStatus = :failed, updatedAt = :now',
      ConditionExpression: 'stripeSessionId = :s AND paymentStatus IN (:pending, :processing)',
      ExpressionAttributeValues: { ':failed': 'failed', ':pending': 'pending', ':processing': 'processing', ':s': sessionId, ':now': now },
    });
  },

  /** The session expired unpaid: forget it, so the next Pay makes a fresh one. */
  async forgetSession(id: string, sessionId: string, now: string): Promise<InvoiceItem | undefined> {
    return updateIf({
      TableName: tableName,
      Key: keys.invoice(id),
      UpdateExpression: 'SET stripeSessionId = :null, updatedAt = :now',
      ConditionExpression: 'stripeSessionId = :s AND paymentStatus <> :paid',
      ExpressionAttributeValues: { ':null': null, ':s': sessionId, ':now': now, ':paid': 'paid' },
    });
  },

  /** A held share went to the worker's account: once (conditional on still being held). */
  async markTransferred(id: string, input: { transferId: string; accountId: string; now: string }): Promise<InvoiceItem | undefined> {
    return updateIf({
      TableName: tableName,
      Key: keys.invoice(id),
      UpdateExpression: 'SET payoutStatus = :transferred, transferId = :t, payoutAccountId = :a, updatedAt = :now',
      ConditionExpression: 'payoutStatus = :held',
      ExpressionAttributeValues: { ':transferred': 'transferred', ':held': 'held', ':t': input.transferId, ':a': input.accountId, ':now': input.now },
    });
  },
};
