import type { LatLng } from '../../shared/domain/geo';
import { crewJobs } from '../jobs/crews';
import { jobItem, jobsRepo, type JobItem, type NewJob } from '../jobs/data/jobs';
import { newId } from '../common/ids';

/**
 * A crew request of `size` jobs for one customer, stored as create-request stores it (the members
 * first, none dispatched yet): the lead first in the answer.
 */
export async function testCrew(category: string, at: LatLng | null, size: number, overrides: Partial<NewJob> = {}): Promise<JobItem[]> {
  const customerId = overrides.customerId ?? newId();
  const createdAt = new Date().toISOString();
  const build = (id: string): JobItem =>
    jobItem({
      id,
      kind: 'request',
      customerId,
      category,
      service: 'Plumbing',
      customerName: 'Crew Customer',
      customerPhone: '555-010-0177',
      customerEmail: 'crew@example.com',
      address: '3 Crew Street',
      latitude: at?.lat ?? null,
      longitude: at?.lng ?? null,
      description: 'Move the whole kitchen: four pairs of hands.',
      createdAt,
      ...overrides,
    });
  const jobs = crewJobs(build(newId()), Array.from({ length: size - 1 }, () => newId()), build);
  for (const job of [...jobs.slice(1), jobs[0]!]) await jobsRepo.create(job);
  return jobs;
}

const now = () => new Date().toISOString();

/** The crew's job `job` taken by `workerId` (offered to them alone, then accepted), as dispatch and the pro would leave it. */
export async function takenBy(job: JobItem, workerId: string, arriveBy = new Date(Date.now() + 45 * 60_000).toISOString()): Promise<JobItem> {
  const current = (await jobsRepo.findById(job.id))!;
  if (!(await jobsRepo.addOffers(current, { [workerId]: new Date(Date.now() + 120_000).toISOString() }, now()))) throw new Error('takenBy: the job changed while being offered');
  await jobsRepo.accept({ jobId: job.id, workerId, hourlyRate: 5000, now: now(), arriveBy });
  return (await jobsRepo.findById(job.id))!;
}

/** The crew's job taken by `workerId` and worked to completed (1 hour). */
export async function completedBy(job: JobItem, workerId: string): Promise<JobItem> {
  await takenBy(job, workerId);
  await jobsRepo.advance({ jobId: job.id, workerId, from: 'accepted', to: 'arrived', stamp: 'arrivedAt', now: now() });
  await jobsRepo.advance({ jobId: job.id, workerId, from: 'arrived', to: 'in_progress', stamp: 'startedAt', now: now() });
  return jobsRepo.complete({ jobId: job.id, workerId, now: now(), totalHours: 1 });
}
