import type { ArrivalClaim, ArrivalEvidence } from '../../../shared/domain/arrival';
import type { JobState } from '../../../shared/domain/booking-status';
import { jobEntity, type JobItem, workerEntity, workerOfferEntity } from '../../../shared/entities';
import { deleteOf, increment, updateOf } from '../../common/data/expressions';
import { WriteCancelled } from '../../common/data/transact';
import { tryUpdate } from '../../common/data/write';
import { jobHistory, workerActor } from './job-history';
import { stats, writeCounted } from '../../owner/data/stats';
import { jobReads } from './job-reads';
import { JobChangeRefused } from './job-item';
import { completing, completion, refusedChange, updateCounting } from './job-writes';
import { declareTableUse } from '../../../shared/entities';

/** The timeline step each of a pro's moves records. */
const stepEvents = { enRouteAt: 'en_route', arrivedAt: 'arrived', startedAt: 'started' } as const;

/**
 * The pro's moves on a job: the accept that makes it theirs, the steps to the door, the arrival
 * (proved or claimed) and the completion, each only from the state the pro saw.
 */
export const jobWork = {
  /**
   * The first accept wins: the job moves only while it is offered and this worker's offer stands,
   * and the worker takes it only while active and holding no other job. One transaction.
   */
  async accept(input: { jobId: string; workerId: string; workerName?: string; hourlyRate: number; now: string; arriveBy: string; sentAt?: string }): Promise<void> {
    const { jobId, workerId, now } = input;
    const sentAt = input.sentAt ?? (await jobReads.findById(jobId))?.createdAt ?? now;
    // The job's first accept is counted (with its time to accept) in the same write, conditional on
    // firstAcceptedAt being absent; a job accepted before (then reassigned) is accepted uncounted.
    for (const first of [true, false]) {
      try {
        await writeCounted([
          {
            Update: updateOf(jobEntity, jobEntity.key(jobId), {
              set: {
                state: 'accepted',
                dispatch: 'assigned',
                acceptedBy: workerId,
                acceptedAt: now,
                arriveBy: input.arriveBy,
                hourlyRate: input.hourlyRate,
                offers: {},
                ...(first ? { firstAcceptedAt: now } : {}),
                version: increment(),
                updatedAt: now,
              },
              // Among the jobs the worker holds: an offered job was never cancelled, completed nor sent back.
              known: { cancelledAt: undefined, endedAt: null, verificationStatus: undefined },
              if: (c) =>
                c.and(c.eq('state', 'offered'), c.gt(c.entry('offers', workerId), now), first ? c.notExists('firstAcceptedAt') : c.exists('firstAcceptedAt')),
            }),
          },
          {
            Update: updateOf(workerEntity, workerEntity.key(workerId), {
              set: { activeJobId: jobId, updatedAt: now },
              // Not while offers are paused (an expired required document): an offer made just
              // before the pause must not still be taken.
              if: (c) => c.and(c.exists('pk'), c.eq('status', 'active'), c.notExists('activeJobId'), c.notExists('offersPausedFor')),
            }),
          },
          { Delete: deleteOf(workerOfferEntity, workerOfferEntity.key(workerId, jobId)) },
          jobHistory.putAction(jobId, { type: 'accepted', actor: workerActor(workerId, input.workerName ?? null), workerId, at: now }),
          ...(first ? [stats.jobAccepted(now, sentAt)] : []),
        ]);
        return;
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
        // Refused as a first accept: perhaps it was accepted before, so try it as a later one.
        if (first && error.refusedAt(0) && !error.refusedAt(1)) continue;
        throw new JobChangeRefused(await jobReads.findById(jobId), error.refusedAt(1) && !error.refusedAt(0));
      }
    }
  },

  /** A worker's step (en route, arrived, started), only from the state the worker saw. */
  async advance(input: { jobId: string; workerId: string; from: JobState; to: JobState; stamp: 'enRouteAt' | 'arrivedAt' | 'startedAt'; now: string }): Promise<JobItem> {
    const moved = await tryUpdate(
      updateOf(jobEntity, jobEntity.key(input.jobId), {
        set: { state: input.to, [input.stamp]: input.now, version: increment(), updatedAt: input.now },
        if: (c) => c.and(c.eq('state', input.from), c.eq('acceptedBy', input.workerId)),
      }),
    );
    if (!moved) return refusedChange(input.jobId);
    await jobHistory.record(input.jobId, { type: stepEvents[input.stamp], actor: workerActor(input.workerId), workerId: input.workerId, at: input.now });
    return moved;
  },

  /**
   * Mark Arrived with its proof: only from the state the pro saw and while they hold the job, so a
   * customer's confirmation or the arrival timer racing it leaves one result. A claim goes with it.
   */
  async arrive(input: { jobId: string; workerId: string; from: JobState; evidence: ArrivalEvidence; now: string; arriveBy: string | null }): Promise<JobItem> {
    const arrived = await updateCounting(
      input.jobId,
      updateOf(jobEntity, jobEntity.key(input.jobId), {
        set: { state: 'arrived', arrivedAt: input.now, arrivalEvidence: input.evidence, version: increment(), updatedAt: input.now },
        remove: ['arrivalClaim'],
        if: (c) => c.and(c.eq('state', input.from), c.eq('acceptedBy', input.workerId)),
      }),
      [stats.arrival(input.now, input.arriveBy === null || input.now <= input.arriveBy)],
    );
    if (!arrived) return refusedChange(input.jobId);
    await jobHistory.record(input.jobId, { type: 'arrived', actor: workerActor(input.workerId), workerId: input.workerId, at: input.now });
    return arrived;
  },

  /**
   * Mark Arrived without a proof: the job stays where it is and keeps the claim for the customer to
   * answer. The job's state and version are untouched, so nothing dispatch or the timer decide on moves.
   */
  async claimArrival(input: { jobId: string; from: JobState; claim: ArrivalClaim; now: string }): Promise<JobItem> {
    const claimed = await tryUpdate(
      updateOf(jobEntity, jobEntity.key(input.jobId), {
        set: { arrivalClaim: input.claim, updatedAt: input.now },
        if: (c) => c.and(c.eq('state', input.from), c.eq('acceptedBy', input.claim.workerId)),
      }),
    );
    return claimed ?? refusedChange(input.jobId);
  },

  /** Completes the job and frees the worker for the next one, together. */
  async complete(input: { jobId: string; workerId: string; now: string; totalHours: number; reworkCount?: number }): Promise<JobItem> {
    const { jobId, workerId, now } = input;
    if (input.reworkCount) return jobWork.completeRework({ ...input, reworkCount: input.reworkCount });
    try {
      await writeCounted([
        {
          Update: updateOf(jobEntity, jobEntity.key(jobId), {
            set: completion(now, input.totalHours),
            known: completing(workerId),
            if: (c) => c.and(c.eq('state', 'in_progress'), c.eq('acceptedBy', workerId)),
          }),
        },
        {
          Update: updateOf(workerEntity, workerEntity.key(workerId), {
            set: { updatedAt: now },
            remove: ['activeJobId'],
            if: (c) => c.eq('activeJobId', jobId),
          }),
        },
        // The first completion (a reworked job's next one goes through completeRework, uncounted).
        stats.jobCompleted(now),
        jobHistory.putAction(jobId, { type: 'completed', actor: workerActor(workerId), workerId, detail: `${input.totalHours} h`, at: now }),
      ]);
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      throw new JobChangeRefused(await jobReads.findById(jobId));
    }
    return (await jobReads.findById(jobId))!;
  },

  /**
   * Completes reworked job: the worker was freed when they first completed it (and may hold another
   * job now), so only the job moves, conditional on the round of rework the worker saw.
   */
  async completeRework(input: { jobId: string; workerId: string; now: string; totalHours: number; reworkCount: number }): Promise<JobItem> {
    const { jobId, workerId, now } = input;
    const completed = await tryUpdate(
      updateOf(jobEntity, jobEntity.key(jobId), {
        set: completion(now, input.totalHours),
        known: completing(workerId),
        if: (c) => c.and(c.eq('state', 'in_progress'), c.eq('acceptedBy', workerId), c.eq('reworkCount', input.reworkCount)),
      }),
    );
    if (!completed) return refusedChange(jobId);
    await jobHistory.record(jobId, { type: 'completed', actor: workerActor(workerId), workerId, detail: `${input.totalHours} h (after rework)`, at: now });
    return completed;
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEntity, workerEntity, workerOfferEntity], writes: [jobEntity, workerEntity, workerOfferEntity] });
