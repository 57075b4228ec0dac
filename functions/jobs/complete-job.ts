import { billableHours, reworkedHours } from '../../shared/domain/earnings';
import { routeByName } from '../../shared/routes';
import { jobActionSchema } from '../../shared/schemas/job';
import { JobChangeRefused, jobsRepo } from './data/jobs';
import { ConflictError } from '../common/errors';
import { http } from '../common/http';
import { toWorkerJobView } from './job-views';
import { jobCompleted } from './job-events';
import { logger } from '../common/logger';
import { checkWorkerMove, jobForWorker } from './worker-jobs';
import { requireOwnWorkerId } from '../workers/worker-scope';
import { crewOf } from './crews';
import { mailRepo } from '../mail/data/mail';
import type { JobItem } from './data/jobs';
import { stillWorking, verifiableMembers } from './job-views';
import { workCompleted } from '../mail/messages/customers';

/**
 * The customer's "verify the work" mail, queued once the completion is stored. A crew's is sent
 * once, when its last pro completes (the crew is verified once, on the request's page): two last
 * pros completing together both queue it, and its key keeps one. Keyed by the round of rework, so
 * the work completed again after changes were asked for is a new mail.
 */
async function mailWorkCompleted(done: JobItem): Promise<void> {
  if (!done.crew || done.crew.size < 2) {
    const message = workCompleted(done, done.totalHours, done.reworkCount ?? 0);
    await mailRepo.queue(message);
    return;
  }
  const crew = await crewOf(done);
  if (stillWorking(crew).length > 0) return;
  const members = verifiableMembers(crew);
  const lead = crew.find((j) => j.id === done.crew!.leadId) ?? done;
  const hours = members.reduce((sum, j) => sum + (j.totalHours ?? 0), 0);
  const round = Math.max(0, ...members.map((j) => j.reworkCount ?? 0));
  const message = workCompleted(lead, hours || null, round);
  await mailRepo.queue(message);
}

/** Complete Job: from in progress only; the billable hours are fixed now, from Start Work to here (plus earlier rounds after rework). */
export const handler = http(routeByName('complete-job'), jobActionSchema, async ({ params, body, caller }) => {
  const worker = caller.worker;
  requireOwnWorkerId(worker, body.workerId);
  const job = await jobForWorker(params.id, worker);
  if (job.acceptedBy !== worker.id) throw new ConflictError('Accept the job first.');
  checkWorkerMove(job, 'completed');
  const now = new Date().toISOString();
  try {
    // After rework the hours add to those already billed; the first round bills from Start Work.
    const totalHours = job.reworkCount ? reworkedHours(job.priorHours ?? 0, job.startedAt, now) : billableHours(job.startedAt, now);
    const done = await jobsRepo.complete({ jobId: job.id, workerId: worker.id, now, totalHours, reworkCount: job.reworkCount });
    logger.info('Job completed', { jobId: job.id, hours: done.totalHours ?? undefined });
    await mailWorkCompleted(done);
    await jobCompleted(done);
    return toWorkerJobView(done, worker);
  } catch (error) {
    if (!(error instanceof JobChangeRefused)) throw error;
    if (error.current) checkWorkerMove(error.current, 'completed');
    throw new ConflictError('This job changed at the same time. Reload and try again.');
  }
});
