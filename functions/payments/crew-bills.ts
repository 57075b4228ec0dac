import { cardFeeCents } from '../../shared/domain/estimate';
import { invoiceNumber } from '../../shared/domain/invoice';
import type { CrewBillView } from '../../shared/schemas/invoice';
import { invoicesRepo, type InvoiceItem } from './data/invoices';
import { jobNumber, jobsRepo, type JobItem } from '../jobs/data/jobs';
import { workersRepo } from '../workers/data/workers';
import { crewOf } from '../jobs/crews';
import { cardFeeRates, env } from '../common/env';
import { toInvoiceView } from './invoice-views';

/**
 * A crew's one bill. Each pro of a crew invoices their own job; those invoices are the bill's lines
 * (no card fee of their own). The customer verifies the lines once, on the lead job (the request),
 * and pays them by one Checkout charge, which adds the card fee of that one charge; each pro's
 * share is then transferred to them from it (functions/payments/payments.ts).
 *
 * The bill's lines are the invoices of the crew's jobs that had a pro and were not cancelled; a
 * job that ended with nobody, or was cancelled, is left out. A job whose pro has not invoiced yet
 * keeps the bill awaiting.
 */
export type CrewBillStatus = CrewBillView['status'];

export interface CrewBill {
  lead: JobItem;
  /** Every job of the crew, in crew order (the lead first). */
  jobs: JobItem[];
  /** The lines: the invoices of the billed jobs, in crew order. */
  lines: InvoiceItem[];
  /** Billed jobs whose pro has not invoiced yet. */
  awaiting: JobItem[];
  /** Labour, rush and materials of every line, cents. */
  subtotal: number;
  /** Card processing on the one charge. */
  transactionFee: number;
  total: number;
  status: CrewBillStatus;
}

/** The lead job of a crew of more than one pro: the request its customer tracks and pays the bill through. */
export function leadsACrew(job: JobItem): job is JobItem & { crew: NonNullable<JobItem['crew']> } {
  return Boolean(job.crew && job.crew.leadId === job.id && job.crew.size > 1);
}

/** A job of the crew that is billed: it had a pro and was not cancelled. */
function billed(job: JobItem): boolean {
  return job.state !== 'cancelled' && (job.acceptedBy !== null || Boolean(job.invoiceId));
}

/** A line's own part of the charge: what it bills less any card fee of its own (a line has none). */
const lineSubtotal = (line: InvoiceItem) => line.totalAmount - (line.transactionFee ?? 0);

function statusOf(lines: readonly InvoiceItem[], awaiting: readonly JobItem[]): CrewBillStatus {
  if (awaiting.length > 0 || lines.length === 0) return 'awaiting';
  if (lines.every((l) => l.paymentStatus === 'paid')) return 'paid';
  // Some lines paid and not others: a settlement still under way.
  if (lines.some((l) => l.paymentStatus === 'processing' || l.paymentStatus === 'paid')) return 'processing';
  if (lines.some((l) => l.paymentStatus === 'failed')) return 'failed';
  if (!lines.every((l) => l.workVerified)) return 'to_verify';
  return 'to_pay';
}

/** The bill as it stands, from the lead job: the crew by one BatchGet, then their invoices by another. */
export async function crewBillOf(lead: JobItem): Promise<CrewBill> {
  const jobs = await crewOf(lead);
  const billedJobs = jobs.filter(billed);
  const invoices = await invoicesRepo.findMany(billedJobs.flatMap((j) => (j.invoiceId ? [j.invoiceId] : [])));
  const invoiceById = new Map(invoices.map((i) => [i.id, i]));
  const lines = billedJobs.flatMap((j) => {
    const line = j.invoiceId ? invoiceById.get(j.invoiceId) : undefined;
    return line ? [line] : [];
  });
  const awaiting = billedJobs.filter((j) => !j.invoiceId);
  const subtotal = lines.reduce((sum, l) => sum + lineSubtotal(l), 0);
  const rates = cardFeeRates();
  const transactionFee = cardFeeCents(subtotal, rates.percent, rates.fixedCents);
  return { lead, jobs, lines, awaiting, subtotal, transactionFee, total: subtotal + transactionFee, status: statusOf(lines, awaiting) };
}

/** The bill of the customer's request `id`; undefined when it is not theirs or not a crew's lead. */
export async function customersCrewBill(id: string, customerId: string): Promise<CrewBill | undefined> {
  const lead = await jobsRepo.findCustomersJob(id, customerId);
  if (!lead || !leadsACrew(lead)) return undefined;
  return crewBillOf(lead);
}

/**
 * The bill of the crew led by `leadId` once it is complete: every billed pro has invoiced, and it is
 * not being paid yet. Undefined while a pro has still to invoice (or for a request that is not a
 * crew's). Two last pros invoicing at the same instant may both find it complete.
 */
export async function completedCrewBill(leadId: string): Promise<CrewBill | undefined> {
  const lead = await jobsRepo.findById(leadId);
  if (!lead || !leadsACrew(lead)) return undefined;
  const bill = await crewBillOf(lead);
  return bill.status === 'to_verify' || bill.status === 'to_pay' ? bill : undefined;
}

const latest = (values: readonly (string | null)[]) => values.reduce<string | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);

export async function toCrewBillView(bill: CrewBill): Promise<CrewBillView> {
  const { lead, lines, awaiting } = bill;
  const workers = await workersRepo.findMany(awaiting.flatMap((j) => (j.acceptedBy ? [j.acceptedBy] : [])));
  const nameOf = new Map(workers.map((w) => [w.id, w.fullName]));
  const verified = lines.length > 0 && lines.every((l) => l.workVerified);
  return {
    requestId: lead.id,
    number: jobNumber(lead),
    service: lead.service,
    workerCount: lead.crew?.size ?? lead.workerCount ?? 1,
    lines: lines.map((l) => toInvoiceView(l, 'customer')),
    awaiting: awaiting.map((j) => ({ jobId: j.id, index: j.crew?.index ?? 1, workerName: (j.acceptedBy && nameOf.get(j.acceptedBy)) || null })),
    subtotal: bill.subtotal,
    transactionFee: bill.transactionFee,
    totalAmount: bill.total,
    platformFee: lines.reduce((sum, l) => sum + l.platformFee, 0),
    feePercent: lines[0]?.feePercent ?? env.PLATFORM_FEE_PERCENT,
    estimatedTotal: lead.estimate?.totalCost ?? null,
    status: bill.status,
    verifiedAt: verified ? latest(lines.map((l) => l.workVerifiedAt)) : null,
    paidAt: bill.status === 'paid' ? latest(lines.map((l) => l.paidAt)) : null,
  };
}

/** The line whose Checkout bookkeeping speaks for the bill: the first (the lead's, when the lead had a pro). */
export function anchorLine(bill: CrewBill): InvoiceItem | undefined {
  return bill.lines[0];
}

/** "Plumbing — 2.5 h by Ana": a pro's line on the bill's Checkout page. */
export function billLineName(line: InvoiceItem): string {
  return `${line.service} — ${line.laborHours.toFixed(1)} h by ${line.workerName}`;
}

export function billLineDescription(line: InvoiceItem): string {
  const extras = [(line.rushFee ?? 0) > 0 ? 'rush fee' : null, line.materialsCost > 0 ? 'materials' : null].filter(Boolean);
  return `Invoice #${invoiceNumber(line.id)}${extras.length ? ` (labour + ${extras.join(' + ')})` : ''}`;
}
