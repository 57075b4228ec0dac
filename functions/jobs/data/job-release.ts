import { jobEntity, workerEntity } from '../../../shared/entities';
import { updateOf } from '../../common/data/expressions';
import { type WriteAction, WriteCancelled } from '../../common/data/transact';
import { type JobEventActor, jobHistory, systemActor } from './job-history';
import { stats, writeCounted } from '../../owner/data/stats';
import { penaltiesRepo, type WorkerPenaltyItem } from '../../arrival/data/penalties';
import type { MailMessage } from '../../mail/message';
import { outboxPuts } from '../../mail/data/mail';
import type { WorkerStatus } from '../../../shared/schemas/worker';
import { RELEASED_WITH_THE_PRO } from './job-item';
import { freshRound } from './job-writes';
import { declareTableUse } from '../../../shared/entities';

/** The late pro's strike as the job's timeline tells it. */
function strikeDetail(strikes: number, limit: number, suspended: boolean): string {
  const count = `strike ${strikes} of ${limit}`;
  return suspended ? `Late arrival: ${count}; the pro is suspended until the owner decides.` : `Late arrival: ${count}.`;
}

/**
 * A held job back to dispatch without its pro: a late pro's strike (and the suspension and mail it
 * may bring), or the owner taking the pro off.
 */
export const jobRelease = {
  /**
   * The arrival grace ran out: the job goes back to dispatch without this worker, who gets a strike
   * (a record with its evidence, `penalty`) and, at `strikesToSuspend` strikes that count, is
   * suspended until the owner decides. One transaction: the job, the worker (conditional on still
   * holding the job before arrival, and on the strikes and status read), the strike record and the
   * job's history, so a second delivery changes nothing and leaves one strike. Null when a condition
   * failed; the caller reads again (a void landing in between changes the count it read).
   * `strikeMail` makes the pro's mail about the strike from its outcome, put in the outbox by the
   * same write: one strike, one mail.
   */
  async reassignLate(input: {
    jobId: string;
    workerId: string;
    strikesBefore: number;
    statusBefore: WorkerStatus;
    strikesToSuspend: number;
    penalty: WorkerPenaltyItem;
    suspendReason: string;
    now: string;
    strikeMail?: (outcome: { strikes: number; suspended: boolean }) => MailMessage | null;
  }): Promise<{ strikes: number; suspended: boolean } | null> {
    const { jobId, workerId, now } = input;
    const strikes = input.strikesBefore + 1;
    // Only an active pro is suspended by the count: one already suspended or terminated stays so.
    const suspend = strikes >= input.strikesToSuspend && input.statusBefore === 'active';
    const mail = input.strikeMail?.({ strikes, suspended: suspend });
    try {
      await writeCounted([
        {
          Update: updateOf(jobEntity, jobEntity.key(jobId), {
            // A fresh round of dispatch: everyone may be offered it again but the worker who was late.
            set: freshRound(workerId, now),
            // A claim the customer did not confirm in time goes with the pro who made it.
            remove: ['arrivalClaim'],
            if: (c) => c.and(c.eq('acceptedBy', workerId), c.oneOf('state', ['accepted', 'en_route'])),
          }),
        },
        {
          Update: updateOf(workerEntity, workerEntity.key(workerId), {
            set: {
              strikes,
              updatedAt: now,
              ...(suspend
                ? { status: 'suspended', isAvailable: false, statusReason: input.suspendReason, statusChangedAt: now, statusChangedBy: 'system' }
                : {}),
            },
            remove: ['activeJobId'],
            if: (c) => c.and(c.eq('activeJobId', jobId), c.eq('strikes', input.strikesBefore), c.eq('status', input.statusBefore)),
          }),
        },
        penaltiesRepo.putAction(input.penalty),
        jobHistory.putAction(jobId, { type: 'strike', actor: systemActor, workerId, detail: strikeDetail(strikes, input.strikesToSuspend, suspend), at: now }),
        jobHistory.putAction(jobId, { type: 'reassigned', actor: systemActor, workerId, detail: 'Back to dispatch: the pro did not arrive in time.', at: now }),
        // A pro who did not arrive in time: a late arrival in the owner's on-time rate.
        stats.arrival(now, false),
        ...(suspend ? [stats.workerStatusMoved('active', 'suspended')] : []),
        ...outboxPuts(mail),
      ]);
      return { strikes, suspended: suspend };
    } catch (error) {
      if (error instanceof WriteCancelled) return null;
      throw error;
    }
  },

  /**
   * The job a pro held goes back to dispatch because the owner took the pro off (suspended or
   * terminated): the same fresh round as a late reassignment, but no strike and no late arrival in
   * the on-time rate (the pro did not fail to arrive; nothing about arrivals is counted). The writes
   * go into the owner's status change, so the release and the status land together or not at all:
   * the job only while this pro still holds it before the work started (an arrival timer, a
   * completion or a Start Work landing first refuses it, and the owner's call reads again). The
   * worker's side (dropping activeJobId) is the status change's own update of the worker.
   */
  releaseActions(input: { jobId: string; workerId: string; actor: JobEventActor; detail: string; now: string }): WriteAction[] {
    const { jobId, workerId, now } = input;
    return [
      {
        Update: updateOf(jobEntity, jobEntity.key(jobId), {
          // A fresh round without the pro who was taken off (they are off dispatch anyway).
          set: { ...freshRound(workerId, now), arrivedAt: null },
          // A claim or a proof of arrival was this pro's: the next pro proves their own.
          remove: ['arrivalClaim', 'arrivalEvidence'],
          if: (c) => c.and(c.eq('acceptedBy', workerId), c.oneOf('state', RELEASED_WITH_THE_PRO)),
        }),
      },
      jobHistory.putAction(jobId, { type: 'reassigned', actor: input.actor, workerId, detail: input.detail, at: now }),
    ];
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEntity, workerEntity], writes: [jobEntity, workerEntity] });
