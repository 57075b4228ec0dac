import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { workerEntity, workerPenaltyEntity, type WorkerPenaltyItem } from '../../../shared/entities';
import type { PageQuery, Page } from '../../../shared/schemas/page';
import type { StrikeEvidence, StrikeReason, StrikeView } from '../../../shared/schemas/strikes';
import { dynamo, tableName } from '../../common/clients';
import { ConflictError, NotFoundError } from '../../common/errors';
import { newId } from '../../common/ids';
import { increment, isNew, putOf, updateOf } from '../../common/data/expressions';
import { readPage } from '../../common/data/page';
import { countAll, queryAll } from '../../common/data/query';
import { writeTogether, WriteCancelled, type WriteAction } from '../../common/data/transact';
import { tryUpdate } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

export type { WorkerPenaltyItem } from '../../../shared/entities';

/**
 * The strike record (worker_penalties): one item per strike beside the worker's profile. The
 * worker's `strikes` counter is the number of strikes that count (every one not voided); a strike is
 * written in the same transaction as the counter's step up (jobsRepo.reassignLate), and a void in
 * the same transaction as its step down, so the two never disagree.
 */

export const STRIKE_NOT_FOUND = 'No strike with this id.';
export const ALREADY_APPEALED = 'This strike has already been appealed or decided.';
export const ALREADY_DECIDED = 'This strike has already been decided.';

export function toStrikeView(item: WorkerPenaltyItem): StrikeView {
  return {
    id: item.id,
    workerId: item.workerId,
    workerName: item.workerName,
    jobId: item.jobId,
    at: item.at,
    reason: item.reason,
    evidence: item.evidence,
    status: item.status,
    appealNote: item.appealNote,
    appealedAt: item.appealedAt,
    decisionNote: item.decisionNote,
    decidedAt: item.decidedAt,
    decidedBy: item.decidedBy,
  };
}

/** A new standing strike, not yet written: it goes into the write that gives it (see reassignLate). */
export function newPenalty(input: { workerId: string; workerName: string; jobId: string; at: string; reason: StrikeReason; evidence: StrikeEvidence }): WorkerPenaltyItem {
  const id = newId();
  return {
    ...workerPenaltyEntity.key(input.workerId, input.at, id),
    ...workerPenaltyEntity.indexes.byId.key(id),
    entity: 'worker-penalty',
    id,
    workerId: input.workerId,
    workerName: input.workerName,
    jobId: input.jobId,
    at: input.at,
    reason: input.reason,
    evidence: input.evidence,
    status: 'standing',
    appealNote: null,
    appealedAt: null,
    decisionNote: null,
    decidedAt: null,
    decidedBy: null,
  };
}

async function readByKey(item: Pick<WorkerPenaltyItem, 'pk' | 'sk'>): Promise<WorkerPenaltyItem | undefined> {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }));
  return out.Item as WorkerPenaltyItem | undefined;
}

export type StrikeDecision = 'void' | 'uphold';

/** A void that met another transaction on the same worker is tried again, a few times. */
const VOID_ATTEMPTS = 3;

export const penaltiesRepo = {
  /** The Put of a new strike, for the transaction that gives it. */
  putAction(item: WorkerPenaltyItem): WriteAction {
    return { Put: putOf(workerPenaltyEntity, item, isNew) };
  },

  /** A worker's whole record, oldest first: a pro's strikes stay few (the limit suspends them). */
  async listOf(workerId: string): Promise<WorkerPenaltyItem[]> {
    return queryAll({ ...workerPenaltyEntity.range(workerId), consistent: true });
  },

  /** A page of a worker's record, for the owner. */
  async pageOf(workerId: string, page: PageQuery): Promise<Page<WorkerPenaltyItem>> {
    return readPage(workerPenaltyEntity.range(workerId), page);
  },

  /** The appeals waiting for the owner's decision, oldest first. */
  async openAppeals(page: PageQuery): Promise<Page<WorkerPenaltyItem>> {
    return readPage(workerPenaltyEntity.indexes.openAppeals.range(), page);
  },

  /** How many appeals wait for the owner: the sparse index holds the open ones only. */
  countOpenAppeals: (): Promise<number> => countAll(workerPenaltyEntity.indexes.openAppeals.range()),

  /** A strike by its id alone (the index finds its key; the item itself is read consistently). */
  async findById(id: string): Promise<WorkerPenaltyItem | undefined> {
    const [found] = await queryAll({ ...workerPenaltyEntity.indexes.byId.range(id), limit: 1 });
    return found ? readByKey(found) : undefined;
  },

  /**
   * The pro contests their own standing strike, once: conditional on it still standing, so a second
   * appeal, or one racing the owner's decision, gets 409. It joins the owner's open appeals.
   */
  async appeal(input: { workerId: string; strikeId: string; note: string; now: string }): Promise<WorkerPenaltyItem> {
    const own = (await penaltiesRepo.listOf(input.workerId)).find((p) => p.id === input.strikeId);
    if (!own) throw new NotFoundError(STRIKE_NOT_FOUND);
    if (own.status !== 'standing') throw new ConflictError(ALREADY_APPEALED);
    const appealed = await tryUpdate(
      updateOf(workerPenaltyEntity, { pk: own.pk, sk: own.sk }, {
        set: {
          status: 'appealed',
          appealNote: input.note,
          appealedAt: input.now,
        },
        stored: own,
        if: (c) => c.and(c.eq('workerId', input.workerId), c.eq('status', 'standing')),
      }),
    );
    if (!appealed) throw new ConflictError(ALREADY_APPEALED);
    return appealed;
  },

  /**
   * The owner's decision on a standing or appealed strike, final. Void takes it off the count: the
   * strike's change and the worker's step down are one transaction conditional on the strike not yet
   * decided, so of two owners deciding at once exactly one does (the other gets 409), and a strike
   * given at the same moment (conditional on the count it read) is retried on the new count.
   * Uphold only records the decision (it still counts). Either way it leaves the open appeals.
   */
  async decide(input: { strikeId: string; decision: StrikeDecision; note: string; by: string; now: string }): Promise<WorkerPenaltyItem> {
    const current = await penaltiesRepo.findById(input.strikeId);
    if (!current) throw new NotFoundError(STRIKE_NOT_FOUND);
    if (current.status !== 'standing' && current.status !== 'appealed') throw new ConflictError(ALREADY_DECIDED);
    const change = updateOf(workerPenaltyEntity, { pk: current.pk, sk: current.sk }, {
      set: { status: input.decision === 'void' ? 'voided' : 'upheld', decisionNote: input.note, decidedAt: input.now, decidedBy: input.by },
      if: (c) => c.oneOf('status', ['standing', 'appealed']),
    });
    if (input.decision === 'uphold') {
      const upheld = await tryUpdate(change);
      if (!upheld) throw new ConflictError(ALREADY_DECIDED);
      return upheld;
    }
    const stepDown = updateOf(workerEntity, workerEntity.key(current.workerId), {
      set: { strikes: increment(-1), updatedAt: input.now },
      if: (c) => c.gt('strikes', 0),
    });
    for (let attempt = 1; ; attempt++) {
      try {
        await writeTogether([{ Update: change }, { Update: stepDown }]);
        return (await readByKey(current)) ?? current;
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
        // Another transaction on the worker at that instant (a strike being given) is no refusal: again.
        const raced = error.reasons.every((r) => r === 'TransactionConflict' || r === 'None');
        if (!raced || attempt >= VOID_ATTEMPTS) throw new ConflictError(ALREADY_DECIDED);
      }
    }
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [workerEntity, workerPenaltyEntity], writes: [workerEntity, workerPenaltyEntity] });
