import type { WorkerStrikeRecord } from '../../shared/schemas/strikes';
import { STRIKES_TO_SUSPEND } from '../../shared/schemas/strikes';
import { sessions } from '../common/auth/sessions';
import { dispatchIndex } from '../jobs/data/dispatch-index';
import { ownerActor } from '../jobs/data/job-history';
import type { JobItem } from '../jobs/data/jobs';
import { penaltiesRepo, toStrikeView, type StrikeDecision, type WorkerPenaltyItem } from './data/penalties';
import { workerAdmin, type StatusChange } from '../workers/data/worker-admin';
import type { WorkerItem } from '../workers/data/workers';
import { cancelArrival, dispatchCycle, offerNext } from '../jobs/dispatch';
import { jobReleased } from '../jobs/job-events';
import { logger } from '../common/logger';
import type { MailMessage } from '../mail/message';
import { strikeRecorded } from '../mail/messages/pros';
import { strikeAppealed } from '../owner/owner-events';
import { notify } from '../realtime/realtime';

/**
 * The strike record's steps beyond the table: telling the pro (and the owner) and keeping dispatch
 * and sessions in line with the worker's status. Each runs after the conditional write that made
 * the change, so a refused (409) change tells nobody anything.
 */

const DASHBOARD = '/worker/dashboard';

/**
 * The pro's mail about a strike being recorded, for the write that records it (jobsRepo.reassignLate
 * calls it with the count and suspension it writes, and puts the mail in the same transaction):
 * the job, the reason, the count, and the Strikes tab to appeal from. Keyed by the strike's id.
 */
export function strikeMailFor(
  worker: Pick<WorkerItem, 'fullName' | 'email'>,
  job: Pick<JobItem, 'id' | 'service'>,
  strike: Pick<WorkerPenaltyItem, 'id' | 'reason'>,
  strikesToSuspend: number,
): (outcome: { strikes: number; suspended: boolean }) => MailMessage | null {
  return (outcome) => strikeRecorded(worker, strike, job, { ...outcome, strikesToSuspend });
}

export async function strikeRecordOf(worker: WorkerItem): Promise<WorkerStrikeRecord> {
  const items = await penaltiesRepo.listOf(worker.id);
  return {
    status: worker.status,
    statusReason: worker.statusReason ?? null,
    statusChangedAt: worker.statusChangedAt ?? null,
    strikes: worker.strikes,
    strikesToSuspend: STRIKES_TO_SUSPEND,
    items: items.map(toStrikeView).reverse(),
  };
}

export async function appealStrike(worker: WorkerItem, strikeId: string, note: string): Promise<WorkerPenaltyItem> {
  const appealed = await penaltiesRepo.appeal({ workerId: worker.id, strikeId, note, now: new Date().toISOString() });
  logger.info('Strike appealed', { workerId: worker.id, strikeId });
  await strikeAppealed({ workerId: worker.id, workerName: worker.fullName, jobId: appealed.jobId });
  return appealed;
}

export async function decideStrike(strikeId: string, decision: StrikeDecision, note: string, owner: { id: string; username: string }): Promise<WorkerPenaltyItem> {
  const decided = await penaltiesRepo.decide({ strikeId, decision, note, by: owner.username, now: new Date().toISOString() });
  logger.info(decision === 'void' ? 'Strike voided' : 'Strike upheld', { strikeId, workerId: decided.workerId, ownerId: owner.id });
  await notify('worker', decided.workerId, {
    type: 'system_alert',
    title: decision === 'void' ? 'Strike removed' : 'Strike upheld',
    message:
      decision === 'void'
        ? `The owner voided your strike: ${note}`
        : `The owner reviewed your strike and kept it: ${note}`,
    priority: 'high',
    actionUrl: DASHBOARD,
    jobId: decided.jobId,
  });
  return decided;
}

const statusNotices: Record<StatusChange, { title: string; lead: string }> = {
  suspend: { title: 'Account suspended', lead: 'Your account is suspended until the owner reviews it' },
  reinstate: { title: 'Account reinstated', lead: 'Your account is active again' },
  terminate: { title: 'Account terminated', lead: 'Your account has been terminated' },
};

/**
 * The owner's suspend, reinstate or terminate. Suspending or terminating ends every session of the
 * pro (their open app signs out, and a suspended pro signs in again to the suspended screen) and
 * takes them out of the dispatch index; reinstating puts them back once they come on call. A job
 * they held that the work had not started on went back to dispatch in the same write (no strike):
 * it is searched for again here.
 */
export async function changeWorkerStatus(workerId: string, change: StatusChange, reason: string, owner: { id: string; username: string }): Promise<WorkerItem> {
  const { worker, released } = await workerAdmin.changeStatus(workerId, change, { reason, by: owner.username, actor: ownerActor(owner), now: new Date().toISOString() });
  if (change !== 'reinstate') await sessions.endAllOf('worker', workerId);
  await dispatchIndex.sync(worker);
  logger.info('Worker status changed', { workerId, change, status: worker.status, ownerId: owner.id, releasedJobId: released?.id });
  const notice = statusNotices[change];
  await notify('worker', workerId, { type: 'system_alert', title: notice.title, message: `${notice.lead}: ${reason}`, priority: 'critical', actionUrl: DASHBOARD, jobId: null });
  if (released && change !== 'reinstate') await searchAgain(released, workerId, change);
  return worker;
}

/**
 * After a job went back to dispatch with its pro's suspension or termination (`job` as it was):
 * its arrival timer is taken back (one that fires anyway finds the pro no longer holds it and does
 * nothing), the customer and the pro are told, and the search starts. The status change is written
 * by then, so a dispatch failure is logged and the job waits searching, where the owner's Offer
 * again on the job's page tops it up with offers.
 */
async function searchAgain(job: JobItem, workerId: string, change: 'suspend' | 'terminate'): Promise<void> {
  await cancelArrival(job.id, workerId, dispatchCycle(job));
  await jobReleased(job, workerId, change);
  try {
    await offerNext(job.id);
  } catch (error) {
    logger.error('Dispatch failed for a job released by a status change', { jobId: job.id, errorName: (error as Error)?.name, errorMessage: (error as Error)?.message });
  }
}
