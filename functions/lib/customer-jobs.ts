import type { ServiceRequestView } from '../../shared/schemas/job';
import type { JobItem } from './data/jobs';
import { workersRepo } from './data/workers';
import { toServiceRequestView } from './job-views';
import { presignDownload } from './storage';

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
