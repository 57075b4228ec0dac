import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WorkerSelf, WorkerStatus, WorkerType } from '../../../shared/schemas/worker';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { ConflictError, ForbiddenError } from '../errors';
import type { EmailClaimItem } from './applications';
import { batchGet } from './batch';
import { writeTogether, WriteCancelled, type WriteAction } from './transact';

/** A worker's profile row (WORKER#id / PROFILE). Rates in cents; SSN digits never live here. */
export interface WorkerItem {
  pk: string;
  sk: string;
  gsi2pk: string;
  gsi2sk: string;
  entity: 'worker';
  id: string;
  applicationId: string;
  fullName: string;
  email: string;
  phone: string;
  address: string;
  status: WorkerStatus;
  strikes: number;
  isVerified: boolean;
  isAvailable: boolean;
  isClockedIn: boolean;
  lastClockIn: string | null;
  yearsExp: number;
  categories: string[];
  hourlyRate: number;
  workerType: WorkerType | null;
  profilePhotoKey: string | null;
  hasAccount: boolean;
  /** The job the worker holds now; set and cleared with the job, so a worker holds at most one. */
  activeJobId?: string;
  /** Last shared position (POST /api/workers/location), for dispatch distances. */
  location?: WorkerLocation;
  /** Running review totals (average = ratingSum / ratingCount) and the current streak of low ratings. */
  ratingSum?: number;
  ratingCount?: number;
  lowRatingStreak?: number;
  /** When the worker's active probation began (a streak of low ratings); one at a time, the owner ends it. */
  probationSince?: string;
  /** Stripe Connect (Express) account for payouts, and whether Stripe says payouts are enabled. */
  stripeAccountId?: string;
  payoutsEnabled?: boolean;
  /** The dispatch index entries written for this worker ("pk|sk"), so the next sync can remove them. */
  dispatchEntries?: string[];
  /**
   * Required document categories whose document expired while no other valid one was approved
   * (issue 7; a string set): no offers while it holds any. Approving a valid one lifts its category.
   */
  offersPausedFor?: Set<string>;
  createdAt: string;
  updatedAt: string;
}

export interface WorkerLocation {
  lat: number;
  lng: number;
  accuracy: number | null;
  geohash: string;
  at: string;
}

/** The worker's login (WORKER#id / ACCOUNT), apart from the profile so profile reads never carry the hash. */
export interface WorkerAccountItem {
  pk: string;
  sk: string;
  entity: 'worker-account';
  workerId: string;
  passwordHash: string;
  createdAt: string;
}

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

function lostRace(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || (error as Error)?.name === 'ConditionalCheckFailedException';
}

/** The same refusal the handler stack gives a worker who is not active (pending or terminated). */
export function notActiveError(status: WorkerStatus): ForbiddenError {
  return new ForbiddenError(
    status === 'terminated' ? 'This account has been terminated.' : 'Your application is still under review.',
  );
}

async function readProfile(id: string): Promise<WorkerItem | undefined> {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.worker(id), ConsistentRead: true }));
  return out.Item as WorkerItem | undefined;
}

/**
 * A change that only an active worker may make: the write is conditional on the profile still
 * being active, so a worker terminated between the token check and the write changes nothing.
 * `extraCondition` names the state the change expects; `conflict` says why it failed otherwise.
 */
async function updateActive(
  id: string,
  update: { set: Record<string, unknown>; extraCondition?: string; extraValues?: Record<string, unknown> },
  conflict = 'This worker profile changed at the same time. Reload and try again.',
): Promise<WorkerItem> {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':active': 'active', ...update.extraValues };
  const assignments = Object.entries({ ...update.set, updatedAt: new Date().toISOString() }).map(([field, value]) => {
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    return `#${field} = :${field}`;
  });
  const condition = ['attribute_exists(pk)', '#status = :active', update.extraCondition].filter(Boolean).join(' AND ');
  try {
    const out = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.worker(id),
        UpdateExpression: `SET ${assignments.join(', ')}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes as WorkerItem;
  } catch (error) {
    if (!lostRace(error)) throw error;
    const current = await readProfile(id);
    if (current && current.status !== 'active') throw notActiveError(current.status);
    throw new ConflictError(conflict);
  }
}

export const workersRepo = {
  async findById(id: string): Promise<WorkerItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.worker(id) }));
    return out.Item as WorkerItem | undefined;
  },

  /** The approved worker an email belongs to, through its claim; undefined before approval. */
  async findByEmail(email: string): Promise<WorkerItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.email(email), ConsistentRead: true }));
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
      ...keys.workerAccount(workerId),
      entity: 'worker-account',
      workerId,
      passwordHash,
      createdAt: now,
    };
    try {
      await writeTogether([
        { Put: { TableName: tableName, Item: account, ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          Update: {
            TableName: tableName,
            Key: keys.worker(workerId),
            UpdateExpression: 'SET hasAccount = :true, updatedAt = :now',
            ConditionExpression: 'attribute_exists(pk) AND hasAccount = :false AND #status <> :pending',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':true': true, ':false': false, ':pending': 'pending_review', ':now': now },
          },
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
      new GetCommand({ TableName: tableName, Key: keys.workerAccount(workerId), ConsistentRead: true }),
    );
    return (out.Item as WorkerAccountItem | undefined)?.passwordHash;
  },

  async setAvailability(workerId: string, isAvailable: boolean): Promise<WorkerItem> {
    return updateActive(workerId, { set: { isAvailable } });
  },

  /** Clocks in only a worker who is out: a second clock-in (even a concurrent one) gets 409. */
  async clockIn(workerId: string, at = new Date().toISOString()): Promise<WorkerItem> {
    return updateActive(
      workerId,
      { set: { isClockedIn: true, lastClockIn: at }, extraCondition: 'isClockedIn = :false', extraValues: { ':false': false } },
      'You are already clocked in.',
    );
  },

  /** Clocks out only a worker who is in. */
  async clockOut(workerId: string): Promise<WorkerItem> {
    return updateActive(
      workerId,
      { set: { isClockedIn: false }, extraCondition: 'isClockedIn = :true', extraValues: { ':true': true } },
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
      const names: Record<string, string> = { '#status': 'status' };
      const values: Record<string, unknown> = { ':active': 'active', ':seen': current.updatedAt };
      const assignments = Object.entries({ ...set, dispatchEntries: entries }).map(([field, value]) => {
        names[`#${field}`] = field;
        values[`:${field}`] = value;
        return `#${field} = :${field}`;
      });
      try {
        await writeTogether([
          {
            Update: {
              TableName: tableName,
              Key: keys.worker(workerId),
              UpdateExpression: `SET ${assignments.join(', ')}`,
              ConditionExpression: 'attribute_exists(pk) AND #status = :active AND #updatedAt = :seen',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
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
    return batchGet<WorkerItem>([...new Set(ids)].map((id) => keys.worker(id)));
  },
};
