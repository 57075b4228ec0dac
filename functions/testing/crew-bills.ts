import type { JobEstimate } from '../../shared/domain/estimate';
import { invoiceForJob, invoicesRepo, type InvoiceItem } from '../payments/data/invoices';
import { jobsRepo } from '../jobs/data/jobs';
import type { WorkerItem } from '../workers/data/workers';
import { cardFeeRates } from '../common/env';
import { newId } from '../common/ids';
import { testCrew } from './crews';
import { dispatchableWorker, testCategory } from './dispatch';

/**
 * Fixtures for a crew's bill: N jobs made together as a request for N pros is stored, each taken,
 * worked, completed and approved by its own pro along the real lifecycle, then invoiced as
 * create-invoice invoices.
 */

const now = () => new Date().toISOString();

/** A crew estimate sent as soon as possible: $50/h for 2 h and the $25 rush fee, for each of `size` pros. */
export function crewEstimate(size: number): JobEstimate {
  const labour = (100_00 + 25_00) * size;
  return { baseAmount: 100_00 * size, rushFee: 25_00 * size, platformFee: labour / 10, transactionFee: 400, totalCost: labour + 400, hours: 2, hourlyRate: 50_00, workerCount: size };
}

export interface CrewMemberPlan {
  /** The pro's profile (e.g. a connected account with payouts enabled). */
  worker?: Partial<WorkerItem>;
  /** Left to nobody: no pro ever took this job. */
  nobody?: boolean;
  /** Taken and worked, but not invoiced yet. */
  uninvoiced?: boolean;
  laborHours?: number;
  materialsCents?: number;
}

/**
 * A crew request of `members.length` jobs for one customer, each (unless told otherwise) taken by
 * its own pro, completed, approved and invoiced ($50/h, the hours given, 10% fee).
 */
export async function invoicedCrew(members: CrewMemberPlan[], estimate: JobEstimate | null = crewEstimate(members.length)) {
  const category = testCategory();
  const customerId = newId();
  const jobs = await testCrew(category, null, members.length, { customerId, estimate });

  const workers: (WorkerItem | null)[] = [];
  const invoices: (InvoiceItem | null)[] = [];
  for (const [i, plan] of members.entries()) {
    const job = jobs[i]!;
    if (plan.nobody) {
      workers.push(null);
      invoices.push(null);
      continue;
    }
    const worker = await dispatchableWorker(category, null, { hourlyRate: 50_00, ...plan.worker });
    workers.push(worker);
    await jobsRepo.addOffers(job, { [worker.id]: new Date(Date.now() + 120_000).toISOString() }, now());
    await jobsRepo.accept({ jobId: job.id, workerId: worker.id, hourlyRate: worker.hourlyRate, now: now(), arriveBy: new Date(Date.now() + 60_000).toISOString() });
    await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now: now() });
    await jobsRepo.advance({ jobId: job.id, workerId: worker.id, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: now() });
    await jobsRepo.complete({ jobId: job.id, workerId: worker.id, now: now(), totalHours: plan.laborHours ?? 2 });
    const approved = await jobsRepo.recordVerification({ jobId: job.id, customerId, approved: true, notes: null, now: now() });
    if (plan.uninvoiced) {
      invoices.push(null);
      continue;
    }
    const invoice = invoiceForJob(approved, worker, {
      id: newId(),
      laborHours: plan.laborHours ?? 2,
      materialsCents: plan.materialsCents ?? 0,
      notes: null,
      feePercent: 10,
      cardFee: cardFeeRates(),
      now: now(),
    });
    await invoicesRepo.create(invoice);
    invoices.push(invoice);
  }
  return { customerId, lead: (await jobsRepo.findById(jobs[0]!.id))!, jobs: await Promise.all(jobs.map(async (j) => (await jobsRepo.findById(j.id))!)), workers, invoices };
}

/** A crew whose every invoice the customer verified on the bill. */
export async function verifiedCrew(members: CrewMemberPlan[]) {
  const crew = await invoicedCrew(members);
  for (const invoice of crew.invoices) if (invoice) await invoicesRepo.markWorkVerified(invoice.id, crew.customerId, now());
  return { ...crew, invoices: await Promise.all(crew.invoices.map(async (i) => (i ? (await invoicesRepo.findById(i.id))! : null))) };
}
