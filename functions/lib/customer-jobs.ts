import type { ServiceRequestView } from '../../shared/schemas/job';
import { jobsRepo, type JobItem } from './data/jobs';
import { workersRepo } from './data/workers';
import { offerNext } from './dispatch';
import { toServiceRequestView } from './job-views';
import { logger } from './logger';
import { presignDownload } from './storage';

/**
 * Puts a new job and starts dispatch. A dispatch failure after the job is stored does not undo
 * the customer's request: it is logged and the job waits, visible as searching.
 */
export async function createAndDispatch(job: JobItem, together: Parameters<typeof jobsRepo.create>[1] = []): Promise<JobItem> {
  await jobsRepo.create(job, together);
  try {
    return (await offerNext(job.id)) ?? job;
  } catch (error) {
    logger.error('Dispatch failed for a new job', { jobId: job.id, errorName: (error as Error)?.name, errorMessage: (error as Error)?.message });
    return job;
  }
}

/** The customer's views of jobs, with each assigned worker's name, phone and photo. */
export async function requestViews(jobs: readonly JobItem[]): Promise<ServiceRequestView[]> {
  const workerIds = jobs.map((j) => j.acceptedBy).filter((id): id is string => Boolean(id));
  const workers = new Map((await workersRepo.findMany(workerIds)).map((w) => [w.id, w]));
  return Promise.all(
    jobs.map(async (job) => {
      const worker = job.acceptedBy ? workers.get(job.acceptedBy) : undefined;
      const photoUrl = worker?.profilePhotoKey ? (await presignDownload(worker.profilePhotoKey, 600)).url : null;
      return toServiceRequestView(job, worker, photoUrl);
    }),
  );
}
