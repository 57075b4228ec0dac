import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  emailClaimEntity,
  workerAccountEntity,
  workerEntity,
  type EmailClaimItem,
  type WorkerAccountItem,
  type WorkerItem,
  type WorkerLocation,
} from '../../../shared/entities';
import type { WorkerSelf, WorkerType } from '../../../shared/schemas/worker';
import { notActiveError, workerProfile } from '../../common/auth/worker-access';
import { dynamo, tableName } from '../../common/clients';
import { ConflictError } from '../../common/errors';
import { batchGet } from '../../common/data/batch';
import { isNew, putOf, updateOf, type ConditionOf } from '../../common/data/expressions';
import { writeTogether, WriteCancelled, type WriteAction } from '../../common/data/transact';
import { applyUpdate, lostRace } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

export type { WorkerAccountItem, WorkerItem, WorkerLocation } from '../../../shared/entities';

export function toWorkerSelf(item: WorkerItem, profilePhotoUrl: string | null = null): WorkerSelf {
  return {
    id: item.id,
    fullName: item.fullName,
    email: item.email,
    status: item.status,
    strikes: item.strikes,
    isAvailable: item.isAvailable,
    isClockedIn: item.isClockedIn,
    lastClockIn: item.lastClockIn,
    yearsExp: item.yearsExp,
    categories: item.categories,
    hourlyRate: item.hourlyRate,
    workerType: item.workerType,
    profilePhotoUrl,
    offersPausedFor: [...(item.offersPausedFor ?? [])].sort(),
  };
}

export interface WorkerProfileChange {
  fullName: string;
  yearsExp: number;
  categories: string[];
  hourlyRate: number;
  /** Absent: the current photo stays. */
  profilePhotoKey?: string;
}

/** What a profile save writes to the dispatch index beside the profile, and the entry ids it leaves. */
export type ProfileIndexer = (next: WorkerItem, current: WorkerItem) => { writes: WriteAction[]; entries: string[] };

const PROFILE_CHANGED = 'This worker profile changed at the same time. Reload and try again.';
/** A clock-in or a location landing between the read and the write is common; three in a row is not. */
const PROFILE_SAVE_ATTEMPTS = 3;

async function readProfile(id: string): Promise<WorkerItem | undefined> {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: workerEntity.key(id), ConsistentRead: true }));
  return out.Item as WorkerItem | undefined;
}

/** Why an independent pro holding a job may not go off call, and what to do about it. */
export const OFF_CALL_WITH_JOB = 'Finish your current job before going off call: as an independent pro you stay on call while you hold one.';

/**
 * A change that only an active worker may make: the write is conditional on the profile still
 * being active, so a worker terminated between the token check and the write changes nothing.
 * `extraCondition` names the state the change expects; `conflict` says why it failed otherwise.
 */
async function updateActive(
  id: string,
  update: { set: Partial<Pick<WorkerItem, 'isAvailable' | 'isClockedIn' | 'lastClockIn' | 'workerType' | 'location'>>; if?: ConditionOf<WorkerItem> },
  conflict = 'This worker profile changed at the same time. Reload and try again.',
): Promise<WorkerItem> {
  try {
    return await applyUpdate(
      updateOf(workerEntity, workerEntity.key(id), {
        set: { ...update.set, updatedAt: new Date().toISOString() },
        if: (c) => c.and(c.exists('pk'), c.eq('status', 'active'), update.if?.(c)),
      }),
    );
  } catch (error) {
    if (!lostRace(error)) throw error;
    const current = await readProfile(id);
    if (current && current.status !== 'active') throw notActiveError(current.status);
    throw new ConflictError(conflict);
  }
}

export const workersRepo = {
  async findById(id: string): Promise<WorkerItem | undefined> {
    return workerProfile(id);
  },

  /** The profile as it is now (a strongly consistent read), for a write conditional on what it read. */
  async findCurrent(id: string): Promise<WorkerItem | undefined> {
    return readProfile(id);
  },

  /** The approved worker an email belongs to, through its claim; undefined before approval. */
  async findByEmail(email: string): Promise<WorkerItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: emailClaimEntity.key(email), ConsistentRead: true }));
    const claim = out.Item as EmailClaimItem | undefined;
    return claim?.workerId ? readProfile(claim.workerId) : undefined;
  },

  /**
   * Creates the worker's login once, together with the profile's hasAccount flag: the ACCOUNT put
   * (first, the deciding condition) and the profile update (still without an account, not pending)
   * are one transaction. Of two racing calls exactly one wins; the other, and any ineligible
   * profile, get false.
   */
  async createAccount(workerId: string, passwordHash: string): Promise<boolean> {
    const now = new Date().toISOString();
    const account: WorkerAccountItem = {
      ...workerAccountEntity.key(workerId),
      entity: 'worker-account',
      workerId,
      passwordHash,
      createdAt: now,
    };
    try {
      await writeTogether([
        { Put: putOf(workerAccountEntity, account, isNew) },
        {
          Update: updateOf(workerEntity, workerEntity.key(workerId), {
            set: { hasAccount: true, updatedAt: now },
            if: (c) => c.and(c.exists('pk'), c.eq('hasAccount', false), c.ne('status', 'pending_review')),
          }),
        },
      ]);
      return true;
    } catch (error) {
      if (error instanceof WriteCancelled) return false;
      throw error;
    }
  },

  /** The stored password hash, for login only; it never leaves the server. */
  async passwordHashOf(workerId: string): Promise<string | undefined> {
    const out = await dynamo.send(
      new GetCommand({ TableName: tableName, Key: workerAccountEntity.key(workerId), ConsistentRead: true }),
    );
    return (out.Item as WorkerAccountItem | undefined)?.passwordHash;
  },

  async setAvailability(workerId: string, isAvailable: boolean): Promise<WorkerItem> {
    if (!isAvailable) return workersRepo.goOffCall(workerId);
    return updateActive(workerId, { set: { isAvailable } });
  },

  /**
   * Off call, except for an independent pro holding a job (`activeJobId`, set on accepting and
   * cleared on completing): they chose to answer for the jobs they accept, so they stay on call
   * until it is finished. Conditional, so a job accepted at the same moment cannot slip past.
   */
  async goOffCall(workerId: string): Promise<WorkerItem> {
    return updateActive(
      workerId,
      { set: { isAvailable: false }, if: (c) => c.or(c.notExists('activeJobId'), c.not(c.eq('workerType', 'independent'))) },
      OFF_CALL_WITH_JOB,
    );
  },

  /** Clocks in only a worker who is out: a second clock-in (even a concurrent one) gets 409. */
  async clockIn(workerId: string, at = new Date().toISOString()): Promise<WorkerItem> {
    return updateActive(
      workerId,
      { set: { isClockedIn: true, lastClockIn: at }, if: (c) => c.eq('isClockedIn', false) },
      'You are already clocked in.',
    );
  },

  /** Clocks out only a worker who is in. */
  async clockOut(workerId: string): Promise<WorkerItem> {
    return updateActive(
      workerId,
      { set: { isClockedIn: false }, if: (c) => c.eq('isClockedIn', true) },
      'You are not clocked in.',
    );
  },

  /**
   * Saves the profile and, in the same transaction, what `index` says the dispatch index needs for
   * the profile as it will be (given the profile as it was read): both or neither, so a refused
   * index write can never leave a profile that dispatch does not match. Conditional on the profile
   * being unchanged since it was read (and still active); read again and retried when it changed.
   */
  async updateProfile(workerId: string, change: WorkerProfileChange, index: ProfileIndexer): Promise<WorkerItem> {
    const { profilePhotoKey, ...fields } = change;
    for (let attempt = 1; ; attempt++) {
      const current = await readProfile(workerId);
      if (current && current.status !== 'active') throw notActiveError(current.status);
      if (!current) throw new ConflictError(PROFILE_CHANGED);
      const set = { ...fields, ...(profilePhotoKey ? { profilePhotoKey } : {}), updatedAt: new Date().toISOString() };
      const next: WorkerItem = { ...current, ...set };
      const { writes, entries } = index(next, current);
      next.dispatchEntries = entries;
      try {
        await writeTogether([
          {
            Update: updateOf(workerEntity, workerEntity.key(workerId), {
              set: { ...set, dispatchEntries: entries },
              if: (c) => c.and(c.exists('pk'), c.eq('status', 'active'), c.eq('updatedAt', current.updatedAt)),
            }),
          },
          ...writes,
        ]);
        return next;
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
        if (attempt >= PROFILE_SAVE_ATTEMPTS) throw new ConflictError(PROFILE_CHANGED);
      }
    }
  },

  async setWorkerType(workerId: string, workerType: WorkerType): Promise<WorkerItem> {
    return updateActive(workerId, { set: { workerType } });
  },

  async setLocation(workerId: string, location: WorkerLocation): Promise<WorkerItem> {
    return updateActive(workerId, { set: { location } });
  },

  /** Several profiles at once (BatchGet, 100 at a time); missing ones are left out. */
  async findMany(ids: readonly string[]): Promise<WorkerItem[]> {
    return batchGet<WorkerItem>([...new Set(ids)].map((id) => workerEntity.key(id)));
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [emailClaimEntity, workerAccountEntity, workerEntity], writes: [emailClaimEntity, workerAccountEntity, workerEntity] });
