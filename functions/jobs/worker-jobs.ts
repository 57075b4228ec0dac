import type { JobState } from '../../shared/domain/booking-status';
import { canMove, nextStates } from '../../shared/domain/job-lifecycle';
import { JobChangeRefused, jobsRepo, type JobItem } from './data/jobs';
import type { WorkerItem } from '../workers/data/workers';
import { ConflictError, ForbiddenError, NotFoundError } from '../common/errors';
import { isId } from '../../shared/schemas/id';

/** The refusals of the job calls, worded for the worker who gets them. */

export const JOB_NOT_FOUND = 'Job not found. It may have been reassigned or it is not yours.';

/** The job as this worker may see it: one they hold or held, or one offered to them now. */
export async function jobForWorker(jobId: string, worker: WorkerItem): Promise<JobItem> {
  const job = isId(jobId) ? await jobsRepo.findById(jobId, false) : undefined;
  const offered = job?.state === 'offered' && job.offers?.[worker.id] !== undefined;
  if (!job || (job.acceptedBy !== worker.id && !offered)) throw new NotFoundError(JOB_NOT_FOUND);
  return job;
}

/** Why an accept lost, from the job as it is now. */
export function acceptRefusal(refused: JobChangeRefused, worker: WorkerItem, now: number): Error {
  const job = refused.current;
  if (!job) return new NotFoundError(JOB_NOT_FOUND);
  if (refused.workerRefused) {
    if (worker.status !== 'active') return new ForbiddenError('This account can no longer accept jobs.');
    if (worker.offersPausedFor?.size) {
      return new ForbiddenError('Your job offers are paused: a required document has expired. Upload a valid one in Documents; offers resume once it is approved.');
    }
    return new ConflictError('Finish your current job before accepting another.');
  }
  if (job.acceptedBy && job.acceptedBy !== worker.id) return new ConflictError('Another professional accepted this job first.');
  if (!job.tried.includes(worker.id)) return new ForbiddenError('This job was not offered to you.');
  const expiresAt = job.offers?.[worker.id];
  if (job.state === 'offered' && expiresAt && Date.parse(expiresAt) <= now) return new ConflictError('This offer has expired.');
  if (job.state === 'offered' && !expiresAt) return new ConflictError('This offer has expired or was passed on.');
  return new ConflictError(`This job can no longer be accepted (it is ${job.state.replace('_', ' ')}).`);
}

/** A worker's move that the lifecycle does not allow: 409 naming the moves that are. */
export function checkWorkerMove(job: JobItem, to: JobState): void {
  if (canMove(job.state, to, 'worker')) return;
  const allowed = nextStates(job.state, 'worker');
  throw new ConflictError(
    allowed.length
      ? `A job that is ${job.state.replace('_', ' ')} can move only to: ${allowed.join(', ')}.`
      : `A job that is ${job.state.replace('_', ' ')} cannot be changed any more.`,
  );
}
