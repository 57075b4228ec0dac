import { handler as enforceArrival } from '../arrival/enforce-arrival';
import { jobsRepo } from '../jobs/data/jobs';
import { penaltiesRepo, type WorkerPenaltyItem } from '../arrival/data/penalties';
import { workersRepo, type WorkerItem } from '../workers/data/workers';
import { dispatchableWorker, north, offeredJob, testCategory, testPlace } from './dispatch';

/**
 * Strikes as the product gives them: the pro accepts a job, the 45-minute deadline passes, and the
 * arrival timer fires (enforce-arrival), which reassigns the job and records the strike.
 */

/** A pro on call near a place of their own, in a category of their own (nothing else is offered their jobs). */
export async function strikablePro(overrides: Partial<WorkerItem> = {}): Promise<WorkerItem> {
  const category = testCategory();
  return dispatchableWorker(category, north(testPlace(), 1), { fullName: 'Late Larry', ...overrides });
}

/** `pro` accepts a job near them, misses the deadline, and the timer fires: their newest strike. */
export async function lateArrival(pro: WorkerItem): Promise<WorkerPenaltyItem> {
  const category = pro.categories[0]!;
  const place = pro.location ? { lat: pro.location.lat, lng: pro.location.lng } : testPlace();
  const job = await offeredJob(category, [pro.id], 120, north(place, 3));
  const now = Date.now();
  await jobsRepo.accept({ jobId: job.id, workerId: pro.id, hourlyRate: 4000, now: new Date(now - 60_000).toISOString(), arriveBy: new Date(now - 1000).toISOString() });
  await enforceArrival({ jobId: job.id, workerId: pro.id });
  const record = await penaltiesRepo.listOf(pro.id);
  const strike = record.find((p) => p.jobId === job.id);
  if (!strike) throw new Error('lateArrival: the timer gave no strike');
  return strike;
}

/** A pro with one strike from a late arrival, and that strike. */
export async function struckPro(overrides: Partial<WorkerItem> = {}): Promise<{ pro: WorkerItem; strike: WorkerPenaltyItem }> {
  const pro = await strikablePro(overrides);
  const strike = await lateArrival(pro);
  return { pro: (await workersRepo.findCurrent(pro.id))!, strike };
}
