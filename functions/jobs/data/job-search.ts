import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { jobEntity, type JobItem, workerOfferEntity, type WorkerOfferItem } from '../../../shared/entities';
import { dynamo } from '../../common/clients';
import { deleteOf, increment, incrementFrom, listAppend, putOf, updateOf } from '../../common/data/expressions';
import { tryUpdate } from '../../common/data/write';
import { type JobEventActor, jobHistory, systemActor, workerActor } from './job-history';
import { stats } from '../../owner/data/stats';
import { updateCounting } from './job-writes';
import { declareTableUse } from '../../../shared/entities';

const offerTtlSeconds = (expiresAt: string) => Math.ceil(Date.parse(expiresAt) / 1000) + 24 * 3600;

/**
 * The search for a pro: offers made and withdrawn, the search ending with nobody and starting
 * afresh. Each move is conditional on the version read, so two timers or a timer and an accept
 * never both win.
 */
export const jobSearch = {
  /**
   * Offers the job to more workers (and moves it to 'offered'), if nobody changed it since
   * `version` was read. Returns false when somebody did: read again and decide again.
   */
  async addOffers(job: JobItem, offers: Record<string, string>, now: string): Promise<boolean> {
    // The job's first offer is a step of the owner's funnel; the version read says it is the first.
    // (`tried` may already hold a hired pro who could not take it; a job accepted or reassigned
    // before firstOfferedAt existed was offered before.)
    const first = !job.firstOfferedAt && !job.acceptedAt && !job.reassignedCount;
    const offered = await updateCounting(
      job.id,
      updateOf(jobEntity, jobEntity.key(job.id), {
        set: {
          state: 'offered',
          dispatch: 'searching',
          tried: listAppend(Object.keys(offers)),
          ...(first ? { firstOfferedAt: now } : {}),
          version: increment(),
          updatedAt: now,
        },
        setEntries: { offers },
        stored: job,
        if: (c) => c.eq('version', job.version),
      }),
      first ? [stats.jobOffered(now)] : [],
    );
    if (!offered) return false;
    // The worker's side of each offer, for their list; the job item stays the authority.
    await Promise.all(
      Object.entries(offers).map(([workerId, expiresAt]) => {
        const item: WorkerOfferItem = {
          ...workerOfferEntity.key(workerId, job.id),
          entity: 'offer',
          jobId: job.id,
          workerId,
          offerExpiresAt: expiresAt,
          expiresAt: offerTtlSeconds(expiresAt),
        };
        return dynamo.send(new PutCommand(putOf(workerOfferEntity, item)));
      }),
    );
    // After the pros' side: their offers list never misses an offer for the sake of its history.
    await Promise.all(Object.keys(offers).map((workerId) => jobHistory.record(job.id, { type: 'offered', actor: systemActor, workerId, at: now })));
    return true;
  },

  /**
   * Withdraws one worker's offer: `expiredBy` set (a timer) withdraws it only once it has expired,
   * absent (a decline) only while it stands. False when the offer was no longer there to withdraw.
   */
  async withdrawOffer(jobId: string, workerId: string, now: string, expiredBy?: string): Promise<boolean> {
    try {
      const withdrawn = await tryUpdate(
        updateOf(jobEntity, jobEntity.key(jobId), {
          set: { version: increment(), updatedAt: now },
          removeEntries: { offers: [workerId] },
          if: (c) =>
            c.and(c.eq('state', 'offered'), expiredBy ? c.le(c.entry('offers', workerId), expiredBy) : c.gt(c.entry('offers', workerId), now)),
        }),
      );
      if (withdrawn) {
        await jobHistory.record(jobId, {
          type: expiredBy ? 'offer_expired' : 'offer_declined',
          actor: expiredBy ? systemActor : workerActor(workerId),
          workerId,
          at: now,
        });
      }
      return withdrawn !== undefined;
    } finally {
      await dynamo.send(new DeleteCommand(deleteOf(workerOfferEntity, workerOfferEntity.key(workerId, jobId))));
    }
  },

  /** Removes the workers' side of offers the job item no longer has (their lists re-check the job anyway). */
  async dropOffers(jobId: string, workerIds: readonly string[]): Promise<void> {
    await Promise.all(workerIds.map((workerId) => dynamo.send(new DeleteCommand(deleteOf(workerOfferEntity, workerOfferEntity.key(workerId, jobId))))));
  },

  /** Nobody left to offer the job to: back to 'booked', and the customer is told. */
  async markNoWorker(job: JobItem, now: string): Promise<boolean> {
    // Counted once per job (its first time without a pro), by trade and area; the version read says so.
    const marked = await updateCounting(
      job.id,
      updateOf(jobEntity, jobEntity.key(job.id), {
        set: {
          state: 'booked',
          dispatch: 'no_worker_available',
          // Among the trade's unfilled jobs from now, for a pro who comes on call nearby soon after.
          noWorkerAt: now,
          version: increment(),
          updatedAt: now,
        },
        stored: job,
        if: (c) => c.eq('version', job.version),
      }),
      job.noWorkerAt ? [] : [stats.noPro(now, job)],
    );
    if (marked) await jobHistory.record(job.id, { type: 'no_pro', actor: systemActor, detail: `Offered to ${job.tried.length} pro(s); nobody accepted.`, at: now });
    return marked !== undefined;
  },

  /**
   * Starts the search afresh on a job that found nobody: everyone may be offered it again. Only
   * from that state and the version read, so a double press or a pro's clock-in racing the
   * customer's Try again reopens it once.
   */
  async reopen(job: JobItem, now: string, actor: JobEventActor = systemActor): Promise<boolean> {
    const reopened = await tryUpdate(
      updateOf(jobEntity, jobEntity.key(job.id), {
        set: {
          dispatch: 'searching',
          tried: [],
          offers: {},
          reopenedCount: incrementFrom(0),
          searchingSince: now,
          version: increment(),
          updatedAt: now,
        },
        // Out of the unfilled jobs; the version read holds the rest of the job as it was.
        stored: job,
        if: (c) => c.and(c.eq('version', job.version), c.eq('state', 'booked'), c.eq('dispatch', 'no_worker_available')),
      }),
    );
    if (reopened) await jobHistory.record(job.id, { type: 'reopened', actor, at: now });
    return reopened !== undefined;
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEntity, workerOfferEntity], writes: [jobEntity, workerOfferEntity] });
