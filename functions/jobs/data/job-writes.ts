import type { JobItem } from '../../../shared/entities';
import { increment, type Update } from '../../common/data/expressions';
import { type WriteAction, WriteCancelled } from '../../common/data/transact';
import { tryUpdate } from '../../common/data/write';
import { writeCounted } from '../../owner/data/stats';
import { jobReads } from './job-reads';
import { JobChangeRefused } from './job-item';
import { declareTableUse, jobEntity } from '../../../shared/entities';

// What the job's moves share: how a refused move is told, a move written with the owner's
// counters, and the fields of a fresh round of dispatch and of a completion.

/** The refusal of a job change that lost its condition, with the job as it is now. */
export async function refusedChange(jobId: string): Promise<never> {
  throw new JobChangeRefused(await jobReads.findById(jobId));
}

/**
 * A conditional job update together with the owner's counters it moves (functions/owner/data/stats.ts):
 * the job after it, or undefined when its condition did not hold (then no counter moved either).
 */
export async function updateCounting(jobId: string, update: Update<JobItem>, counters: WriteAction[]): Promise<JobItem | undefined> {
  if (counters.length === 0) return tryUpdate(update);
  try {
    await writeCounted([{ Update: update }, ...counters]);
  } catch (error) {
    if (error instanceof WriteCancelled) return undefined;
    throw error;
  }
  return jobReads.findById(jobId);
}

/**
 * A held job back to dispatch, a fresh round: offered to everyone again but `workerId` (the pro who
 * lost it), in a new dispatch cycle (reassignedCount), so the next round's timers never meet the
 * names of this one's.
 */
export function freshRound(workerId: string, now: string) {
  return {
    state: 'booked' as const,
    dispatch: 'searching' as const,
    offers: {},
    tried: [workerId],
    reassignedCount: increment(),
    searchingSince: now,
    version: increment(),
    updatedAt: now,
    acceptedBy: null,
    acceptedAt: null,
    arriveBy: null,
    enRouteAt: null,
    hourlyRate: null,
  };
}

/** What completing a job (the first time or after rework) sets: among the worker's finished jobs, by when it ended. */
export function completion(now: string, totalHours: number) {
  return { state: 'completed', dispatch: 'done', endedAt: now, totalHours, version: increment(), updatedAt: now } as const;
}

/** What a job in progress is known to be: held by its worker (the condition says so), never cancelled. */
export function completing(workerId: string) {
  return { acceptedBy: workerId, cancelledAt: undefined };
}

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEntity], writes: [jobEntity] });
