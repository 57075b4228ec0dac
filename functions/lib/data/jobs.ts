import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ArrivalClaim, ArrivalEvidence } from '../../../shared/domain/arrival';
import type { JobState } from '../../../shared/domain/booking-status';
import type { DispatchStatus } from '../../../shared/schemas/job';
import { phoneDigits, requestNumber } from '../../../shared/domain/requests';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { batchGet } from './batch';
import { queryAll } from './query';
import { writeTogether, WriteCancelled, type WriteAction } from './transact';

/**
 * Jobs (DESIGN.md sections 6 and 8). A booking's job sits beside its booking; a service request
 * and a hire are their job. Every change is conditional on the state it expects; dispatch changes
 * also on `version`, so two timers or a timer and an accept never both win.
 */
export type JobKind = 'booking' | 'request' | 'hire';

export interface JobItem {
  pk: string;
  sk: string;
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
  gsi3pk: string;
  gsi3sk: string;
  entity: 'job';
  id: string;
  kind: JobKind;
  bookingId: string | null;
  customerId: string;
  category: string;
  service: string;
  customerName: string;
  customerPhone: string;
  customerEmail: string | null;
  address: string;
  latitude: number | null;
  longitude: number | null;
  gpsEnabled: boolean;
  description: string;
  state: JobState;
  version: number;
  dispatch: DispatchStatus;
  /** Outstanding offers: worker id -> when the offer expires (ISO). */
  offers: Record<string, string>;
  /** Every worker offered this job so far (each at most once). */
  tried: string[];
  /** A hire: offered to this worker first, alone. */
  preferredWorkerId: string | null;
  acceptedBy: string | null;
  /** The worker's rate when they accepted, cents. */
  hourlyRate: number | null;
  acceptedAt: string | null;
  arriveBy: string | null;
  enRouteAt: string | null;
  arrivedAt: string | null;
  startedAt: string | null;
  endedAt: string | null;
  totalHours: number | null;
  reassignedCount: number;
  /**
   * The customer's review, on the job itself: written once (conditional on its absence) together
   * with the worker's running totals. A worker's reviews are their completed jobs (gsi2 DONE#).
   */
  rating?: number;
  reviewText?: string;
  reviewerName?: string;
  reviewedAt?: string;
  /** The customer's answer to "verify the completed work" (the last one, if they asked for rework). */
  verificationStatus?: 'approved' | 'rejected';
  verificationNotes?: string | null;
  verificationAt?: string;
  /** The customer's notes from the last rejection, shown to the worker while they rework it. */
  clientNotes?: string | null;
  /** Times the customer sent the finished work back; billable hours add up across rounds. */
  reworkCount?: number;
  /** Hours billed before the current round of rework. */
  priorHours?: number;
  /** Set once, together with the invoice. */
  invoiceId?: string;
  paidAt?: string;
  /** When the search last ended with nobody (the customer was told no worker is available). */
  noWorkerAt?: string;
  /** Times the search was started afresh (Try again, or a pro who came on call nearby). */
  reopenedCount?: number;
  cancelledAt?: string;
  /** Why the job counts as arrived: a fix close to it, or the customer confirming the pro's claim. */
  arrivalEvidence?: ArrivalEvidence;
  /** The holder's Mark Arrived that no fix proved, until the customer answers it or the job is reassigned. */
  arrivalClaim?: ArrivalClaim;
  createdAt: string;
  updatedAt: string;
}

export interface NewJob {
  id: string;
  kind: JobKind;
  bookingId?: string;
  customerId: string;
  category: string;
  service: string;
  customerName: string;
  customerPhone: string;
  customerEmail?: string;
  address: string;
  latitude?: number | null;
  longitude?: number | null;
  gpsEnabled?: boolean;
  description: string;
  preferredWorkerId?: string;
  createdAt: string;
}

/** A new job item, not yet offered to anyone. */
export function jobItem(input: NewJob): JobItem {
  const located = typeof input.latitude === 'number' && typeof input.longitude === 'number' && !(input.latitude === 0 && input.longitude === 0);
  return {
    ...keys.job(input.id),
    // Every door's job is among its customer's requests: a booking is verified, paid and rated as one.
    ...keys.customerRequests(input.customerId, input.createdAt),
    ...keys.allJobs(input.createdAt),
    entity: 'job',
    id: input.id,
    kind: input.kind,
    bookingId: input.bookingId ?? null,
    customerId: input.customerId,
    category: input.category,
    service: input.service,
    customerName: input.customerName,
    customerPhone: input.customerPhone,
    customerEmail: input.customerEmail ?? null,
    address: input.address,
    latitude: located ? input.latitude! : null,
    longitude: located ? input.longitude! : null,
    gpsEnabled: input.gpsEnabled ?? false,
    description: input.description,
    state: 'booked',
    version: 0,
    dispatch: 'searching',
    offers: {},
    tried: [],
    preferredWorkerId: input.preferredWorkerId ?? null,
    acceptedBy: null,
    hourlyRate: null,
    acceptedAt: null,
    arriveBy: null,
    enRouteAt: null,
    arrivedAt: null,
    startedAt: null,
    endedAt: null,
    totalHours: null,
    reassignedCount: 0,
    createdAt: input.createdAt,
    updatedAt: input.createdAt,
  };
}

/**
 * The number screens show for a job: a booking's is its booking's (the id in the link /book sent
 * the customer to), a request's or a hire's its own; last 8 characters, upper case.
 */
export function jobNumber(job: Pick<JobItem, 'id' | 'bookingId'>): string {
  return requestNumber(job.bookingId ?? job.id);
}

/** Why a conditional change did not happen: the caller decides which 4xx that is. */
export class JobChangeRefused extends Error {
  constructor(readonly current: JobItem | undefined, readonly workerRefused = false) {
    super('Job change refused');
    this.name = 'JobChangeRefused';
  }
}

const offerTtlSeconds = (expiresAt: string) => Math.ceil(Date.parse(expiresAt) / 1000) + 24 * 3600;

function lostRace(error: unknown): boolean {
  return (error as Error)?.name === 'ConditionalCheckFailedException';
}

const queryJobs = (input: { index: 'gsi1' | 'gsi2'; pk: string; skPrefix: string }) => queryAll<JobItem>(input);

export const jobsRepo = {
  /**
   * Puts a new job and its tracking number; `with` are writes that happen together with it (a
   * booking's own item).
   */
  async create(job: JobItem, together: WriteAction[] = []): Promise<void> {
    const lookup = keys.trackingNumber(jobNumber(job), phoneDigits(job.customerPhone), job.id);
    await writeTogether([
      ...together,
      { Put: { TableName: tableName, Item: job, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName, Item: { ...lookup, entity: 'tracking-number', jobId: job.id } } },
    ]);
  },

  /** The job a screen's number and the phone it was made with point at, if any. */
  async findByNumber(number: string, phone: string): Promise<JobItem | undefined> {
    const digits = phoneDigits(phone);
    const lookup = keys.trackingNumber(number, digits);
    const out = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': lookup.pk, ':sk': lookup.sk },
        Limit: 5,
      }),
    );
    const id = (out.Items ?? [])[0]?.jobId as string | undefined;
    return id ? jobsRepo.findById(id, false) : undefined;
  },

  /** Removes the workers' side of offers the job item no longer has (their lists re-check the job anyway). */
  async dropOffers(jobId: string, workerIds: readonly string[]): Promise<void> {
    await Promise.all(workerIds.map((workerId) => dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.workerOffer(workerId, jobId) }))));
  },

  /** Jobs of a trade whose search ended with nobody since `since` (ISO), oldest first. */
  async listUnfilledSince(category: string, since: string): Promise<JobItem[]> {
    const { gsi2pk } = keys.unfilledJobs(category);
    const out = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk >= :since',
        ExpressionAttributeValues: { ':pk': gsi2pk, ':since': since },
        Limit: 50,
      }),
    );
    return (out.Items ?? []) as JobItem[];
  },

  /**
   * Starts the search afresh on a job that found nobody: everyone may be offered it again. Only
   * from that state and the version read, so a double press or a pro's clock-in racing the
   * customer's Try again reopens it once.
   */
  async reopen(job: JobItem, now: string): Promise<boolean> {
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(job.id),
          UpdateExpression:
            'SET dispatch = :searching, tried = :empty, #offers = :none, reopenedCount = if_not_exists(reopenedCount, :zero) + :one, version = version + :one, updatedAt = :now REMOVE gsi2pk, gsi2sk',
          ConditionExpression: 'version = :v AND #state = :booked AND dispatch = :noWorker',
          ExpressionAttributeNames: { '#state': 'state', '#offers': 'offers' },
          ExpressionAttributeValues: {
            ':searching': 'searching',
            ':empty': [],
            ':none': {},
            ':zero': 0,
            ':one': 1,
            ':now': now,
            ':v': job.version,
            ':booked': 'booked',
            ':noWorker': 'no_worker_available',
          },
        }),
      );
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  },

  /**
   * The customer withdraws a job nobody has accepted. Conditional on that (and on being theirs),
   * so an accept racing it leaves exactly one of the two. Answers the job as it was, for its offers.
   */
  async cancel(jobId: string, customerId: string, now: string): Promise<JobItem> {
    try {
      const out = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(jobId),
          UpdateExpression: 'SET #state = :cancelled, dispatch = :done, cancelledAt = :now, #offers = :none, version = version + :one, updatedAt = :now REMOVE gsi2pk, gsi2sk',
          ConditionExpression: 'attribute_exists(pk) AND customerId = :c AND #state IN (:booked, :offered)',
          ExpressionAttributeNames: { '#state': 'state', '#offers': 'offers' },
          ExpressionAttributeValues: {
            ':cancelled': 'cancelled',
            ':done': 'done',
            ':now': now,
            ':none': {},
            ':one': 1,
            ':c': customerId,
            ':booked': 'booked',
            ':offered': 'offered',
          },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return out.Attributes as JobItem;
    } catch (error) {
      if (!lostRace(error)) throw error;
      throw new JobChangeRefused(await jobsRepo.findById(jobId));
    }
  },

  async findById(id: string, consistent = true): Promise<JobItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.job(id), ConsistentRead: consistent }));
    return out.Item as JobItem | undefined;
  },

  /** A job of this customer's; another customer's (or a malformed id) answers as a missing one. */
  async findCustomersJob(id: string, customerId: string, consistent = true): Promise<JobItem | undefined> {
    const job = /^[A-Za-z0-9_-]{22}$/.test(id) ? await jobsRepo.findById(id, consistent) : undefined;
    return job?.customerId === customerId ? job : undefined;
  },

  async findMany(ids: readonly string[]): Promise<JobItem[]> {
    return batchGet<JobItem>([...new Set(ids)].map((id) => keys.job(id)));
  },

  /** The customer's requests and hires, oldest first. */
  async listForCustomer(customerId: string): Promise<JobItem[]> {
    const { gsi1pk } = keys.customerRequests(customerId);
    return queryJobs({ index: 'gsi1', pk: gsi1pk, skPrefix: 'REQUEST#' });
  },

  /** The jobs a worker holds now (accepted to in progress). */
  async listHeldBy(workerId: string): Promise<JobItem[]> {
    return queryJobs({ index: 'gsi2', pk: keys.workerJobs(workerId).gsi2pk, skPrefix: 'ACTIVE#' });
  },

  /** The jobs a worker finished, oldest first. */
  async listCompletedBy(workerId: string): Promise<JobItem[]> {
    return queryJobs({ index: 'gsi2', pk: keys.workerJobs(workerId).gsi2pk, skPrefix: 'DONE#' });
  },

  /** Ids of the jobs offered to a worker (the job item decides whether each offer still stands). */
  async offeredJobIds(workerId: string): Promise<string[]> {
    const out = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': keys.workerOffer(workerId).pk, ':sk': keys.workerOffer(workerId).sk },
      }),
    );
    return (out.Items ?? []).map((item) => item.jobId as string);
  },

  /**
   * Offers the job to more workers (and moves it to 'offered'), if nobody changed it since
   * `version` was read. Returns false when somebody did: read again and decide again.
   */
  async addOffers(job: JobItem, offers: Record<string, string>, now: string): Promise<boolean> {
    const names: Record<string, string> = { '#state': 'state', '#offers': 'offers' };
    const values: Record<string, unknown> = { ':v': job.version, ':offered': 'offered', ':searching': 'searching', ':now': now, ':new': Object.keys(offers), ':one': 1 };
    const sets = ['#state = :offered', 'dispatch = :searching', 'tried = list_append(tried, :new)', 'version = version + :one', 'updatedAt = :now'];
    Object.entries(offers).forEach(([workerId, expiresAt], i) => {
      names[`#w${i}`] = workerId;
      values[`:e${i}`] = expiresAt;
      sets.push(`#offers.#w${i} = :e${i}`);
    });
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(job.id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'version = :v',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
    // The worker's side of each offer, for their list; the job item stays the authority.
    await Promise.all(
      Object.entries(offers).map(([workerId, expiresAt]) =>
        dynamo.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.workerOffer(workerId, job.id), entity: 'offer', jobId: job.id, workerId, offerExpiresAt: expiresAt, expiresAt: offerTtlSeconds(expiresAt) },
          }),
        ),
      ),
    );
    return true;
  },

  /** Nobody left to offer the job to: back to 'booked', and the customer is told. */
  async markNoWorker(job: JobItem, now: string): Promise<boolean> {
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(job.id),
          // Among the trade's unfilled jobs (gsi2), for a pro who comes on call nearby soon after.
          UpdateExpression: 'SET #state = :booked, dispatch = :none, noWorkerAt = :now, gsi2pk = :g2pk, gsi2sk = :now, version = version + :one, updatedAt = :now',
          ConditionExpression: 'version = :v',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':booked': 'booked',
            ':none': 'no_worker_available',
            ':v': job.version,
            ':one': 1,
            ':now': now,
            ':g2pk': keys.unfilledJobs(job.category).gsi2pk,
          },
        }),
      );
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  },

  /**
   * Withdraws one worker's offer: `expiredBy` set (a timer) withdraws it only once it has expired,
   * absent (a decline) only while it stands. False when the offer was no longer there to withdraw.
   */
  async withdrawOffer(jobId: string, workerId: string, now: string, expiredBy?: string): Promise<boolean> {
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(jobId),
          UpdateExpression: 'REMOVE #offers.#w SET version = version + :one, updatedAt = :now',
          ConditionExpression: expiredBy
            ? '#state = :offered AND #offers.#w <= :by'
            : '#state = :offered AND #offers.#w > :now',
          ExpressionAttributeNames: { '#state': 'state', '#offers': 'offers', '#w': workerId },
          ExpressionAttributeValues: { ':offered': 'offered', ':one': 1, ':now': now, ...(expiredBy ? { ':by': expiredBy } : {}) },
        }),
      );
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    } finally {
      await dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.workerOffer(workerId, jobId) }));
    }
  },

  /**
   * The first accept wins: the job moves only while it is offered and this worker's offer stands,
   * and the worker takes it only while active and holding no other job. One transaction.
   */
  async accept(input: { jobId: string; workerId: string; hourlyRate: number; now: string; arriveBy: string }): Promise<void> {
    const { jobId, workerId, now } = input;
    try {
      await writeTogether([
        {
          Update: {
            TableName: tableName,
            Key: keys.job(jobId),
            UpdateExpression:
              'SET #state = :accepted, dispatch = :assigned, acceptedBy = :w, acceptedAt = :now, arriveBy = :arriveBy, hourlyRate = :rate, #offers = :none, gsi2pk = :g2pk, gsi2sk = :g2sk, version = version + :one, updatedAt = :now',
            ConditionExpression: '#state = :offered AND #offers.#w > :now',
            ExpressionAttributeNames: { '#state': 'state', '#offers': 'offers', '#w': workerId },
            ExpressionAttributeValues: {
              ':accepted': 'accepted',
              ':assigned': 'assigned',
              ':offered': 'offered',
              ':w': workerId,
              ':now': now,
              ':arriveBy': input.arriveBy,
              ':rate': input.hourlyRate,
              ':none': {},
              ':g2pk': keys.workerJobs(workerId).gsi2pk,
              ':g2sk': keys.workerJobs(workerId, 'ACTIVE', now).gsi2sk,
              ':one': 1,
            },
          },
        },
        {
          Update: {
            TableName: tableName,
            Key: keys.worker(workerId),
            UpdateExpression: 'SET activeJobId = :job, updatedAt = :now',
            // Not while offers are paused (an expired required document): an offer made just
            // before the pause must not still be taken.
            ConditionExpression: 'attribute_exists(pk) AND #status = :active AND attribute_not_exists(activeJobId) AND attribute_not_exists(offersPausedFor)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':job': jobId, ':active': 'active', ':now': now },
          },
        },
        { Delete: { TableName: tableName, Key: keys.workerOffer(workerId, jobId) } },
      ]);
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      throw new JobChangeRefused(await jobsRepo.findById(jobId), error.refusedAt(1) && !error.refusedAt(0));
    }
  },

  /** A worker's step (en route, arrived, started), only from the state the worker saw. */
  async advance(input: { jobId: string; workerId: string; from: JobState; to: JobState; stamp: 'enRouteAt' | 'arrivedAt' | 'startedAt'; now: string }): Promise<JobItem> {
    try {
      const out = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(input.jobId),
          UpdateExpression: 'SET #state = :to, #stamp = :now, version = version + :one, updatedAt = :now',
          ConditionExpression: '#state = :from AND acceptedBy = :w',
          ExpressionAttributeNames: { '#state': 'state', '#stamp': input.stamp },
          ExpressionAttributeValues: { ':to': input.to, ':from': input.from, ':w': input.workerId, ':now': input.now, ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as JobItem;
    } catch (error) {
      if (!lostRace(error)) throw error;
      throw new JobChangeRefused(await jobsRepo.findById(input.jobId));
    }
  },

  /** Completes the job and frees the worker for the next one, together. */
  async complete(input: { jobId: string; workerId: string; now: string; totalHours: number; reworkCount?: number }): Promise<JobItem> {
    const { jobId, workerId, now } = input;
    if (input.reworkCount) return jobsRepo.completeRework({ ...input, reworkCount: input.reworkCount });
    try {
      await writeTogether([
        {
          Update: {
            TableName: tableName,
            Key: keys.job(jobId),
            UpdateExpression: 'SET #state = :completed, dispatch = :done, endedAt = :now, totalHours = :hours, gsi2sk = :g2sk, version = version + :one, updatedAt = :now',
            ConditionExpression: '#state = :inProgress AND acceptedBy = :w',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: {
              ':completed': 'completed',
              ':done': 'done',
              ':inProgress': 'in_progress',
              ':w': workerId,
              ':now': now,
              ':hours': input.totalHours,
              ':g2sk': keys.workerJobs(workerId, 'DONE', now).gsi2sk,
              ':one': 1,
            },
          },
        },
        {
          Update: {
            TableName: tableName,
            Key: keys.worker(workerId),
            UpdateExpression: 'REMOVE activeJobId SET updatedAt = :now',
            ConditionExpression: 'activeJobId = :job',
            ExpressionAttributeValues: { ':job': jobId, ':now': now },
          },
        },
      ]);
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      throw new JobChangeRefused(await jobsRepo.findById(jobId));
    }
    return (await jobsRepo.findById(jobId))!;
  },

  /**
   * Completes reworked job: the worker was freed when they first completed it (and may hold another
   * job now), so only the job moves, conditional on the round of rework the worker saw.
   */
  async completeRework(input: { jobId: string; workerId: string; now: string; totalHours: number; reworkCount: number }): Promise<JobItem> {
    const { jobId, workerId, now } = input;
    try {
      const out = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(jobId),
          UpdateExpression: 'SET #state = :completed, dispatch = :done, endedAt = :now, totalHours = :hours, gsi2sk = :g2sk, version = version + :one, updatedAt = :now',
          ConditionExpression: '#state = :inProgress AND acceptedBy = :w AND reworkCount = :rc',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':completed': 'completed',
            ':done': 'done',
            ':inProgress': 'in_progress',
            ':w': workerId,
            ':rc': input.reworkCount,
            ':now': now,
            ':hours': input.totalHours,
            ':g2sk': keys.workerJobs(workerId, 'DONE', now).gsi2sk,
            ':one': 1,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as JobItem;
    } catch (error) {
      if (!lostRace(error)) throw error;
      throw new JobChangeRefused(await jobsRepo.findById(jobId));
    }
  },

  /**
   * The customer's answer to the finished work: approved moves it to 'verified' (the worker may
   * invoice it); rejected sends it back to the worker in progress with the notes, the hours so far
   * kept. Only from 'completed' and only the job's own customer, so a second answer changes nothing.
   */
  async recordVerification(input: { jobId: string; customerId: string; approved: boolean; notes: string | null; now: string }): Promise<JobItem> {
    const { jobId, now } = input;
    const common = {
      ':completed': 'completed',
      ':c': input.customerId,
      ':now': now,
      ':notes': input.notes,
      ':one': 1,
    };
    try {
      const out = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(jobId),
          UpdateExpression: input.approved
            ? 'SET #state = :verified, verificationStatus = :approved, verificationNotes = :notes, verificationAt = :now, version = version + :one, updatedAt = :now'
            : 'SET #state = :inProgress, verificationStatus = :rejected, verificationNotes = :notes, verificationAt = :now, clientNotes = :notes, ' +
              'reworkCount = if_not_exists(reworkCount, :zero) + :one, priorHours = totalHours, startedAt = :now, endedAt = :null, gsi2sk = :active, version = version + :one, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND #state = :completed AND customerId = :c',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: input.approved
            ? { ...common, ':verified': 'verified', ':approved': 'approved' }
            : {
                ...common,
                ':inProgress': 'in_progress',
                ':rejected': 'rejected',
                ':zero': 0,
                ':null': null,
                // Back among the jobs the worker holds (their today's list), by when it came back.
                ':active': `ACTIVE#${now}`,
              },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as JobItem;
    } catch (error) {
      if (!lostRace(error)) throw error;
      throw new JobChangeRefused(await jobsRepo.findById(jobId));
    }
  },

  /**
   * Mark Arrived with its proof: only from the state the pro saw and while they hold the job, so a
   * customer's confirmation or the arrival timer racing it leaves one result. A claim goes with it.
   */
  async arrive(input: { jobId: string; workerId: string; from: JobState; evidence: ArrivalEvidence; now: string }): Promise<JobItem> {
    try {
      const out = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(input.jobId),
          UpdateExpression: 'SET #state = :arrived, arrivedAt = :now, arrivalEvidence = :evidence, version = version + :one, updatedAt = :now REMOVE arrivalClaim',
          ConditionExpression: '#state = :from AND acceptedBy = :w',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':arrived': 'arrived', ':from': input.from, ':w': input.workerId, ':now': input.now, ':evidence': input.evidence, ':one': 1 },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as JobItem;
    } catch (error) {
      if (!lostRace(error)) throw error;
      throw new JobChangeRefused(await jobsRepo.findById(input.jobId));
    }
  },

  /**
   * Mark Arrived without a proof: the job stays where it is and keeps the claim for the customer to
   * answer. The job's state and version are untouched, so nothing dispatch or the timer decide on moves.
   */
  async claimArrival(input: { jobId: string; from: JobState; claim: ArrivalClaim; now: string }): Promise<JobItem> {
    try {
      const out = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(input.jobId),
          UpdateExpression: 'SET arrivalClaim = :claim, updatedAt = :now',
          ConditionExpression: '#state = :from AND acceptedBy = :w',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':claim': input.claim, ':from': input.from, ':w': input.claim.workerId, ':now': input.now },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as JobItem;
    } catch (error) {
      if (!lostRace(error)) throw error;
      throw new JobChangeRefused(await jobsRepo.findById(input.jobId));
    }
  },

  /**
   * The customer's answer to the claim they were shown (`claimedAt` names it): yes moves the job to
   * arrived as of the claim, no removes the claim. Conditional on that claim still standing and its
   * pro still holding the job before arrival, so of a confirm, a second confirm and the arrival timer
   * exactly one decides.
   */
  async answerArrivalClaim(input: { jobId: string; customerId: string; workerId: string; claimedAt: string; arrived: boolean; now: string }): Promise<JobItem> {
    const condition = 'customerId = :c AND acceptedBy = :w AND #state IN (:accepted, :enRoute) AND arrivalClaim.claimedAt = :claimedAt';
    const values = { ':c': input.customerId, ':w': input.workerId, ':accepted': 'accepted', ':enRoute': 'en_route', ':claimedAt': input.claimedAt, ':now': input.now };
    const evidence: ArrivalEvidence = { method: 'customer', claimedAt: input.claimedAt, confirmedAt: input.now };
    try {
      const out = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(input.jobId),
          UpdateExpression: input.arrived
            ? 'SET #state = :arrived, arrivedAt = :claimedAt, arrivalEvidence = :evidence, version = version + :one, updatedAt = :now REMOVE arrivalClaim'
            : 'SET updatedAt = :now REMOVE arrivalClaim',
          ConditionExpression: condition,
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: input.arrived ? { ...values, ':arrived': 'arrived', ':evidence': evidence, ':one': 1 } : values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as JobItem;
    } catch (error) {
      if (!lostRace(error)) throw error;
      throw new JobChangeRefused(await jobsRepo.findById(input.jobId));
    }
  },

  /** Payment settled: verified → paid, once (a repeated or late event finds it paid and changes nothing). */
  async markPaid(jobId: string, now: string): Promise<boolean> {
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.job(jobId),
          UpdateExpression: 'SET #state = :paid, paidAt = :now, version = version + :one, updatedAt = :now',
          ConditionExpression: '#state = :verified',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':paid': 'paid', ':verified': 'verified', ':now': now, ':one': 1 },
        }),
      );
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  },

  /**
   * The arrival grace ran out: the job goes back to dispatch without this worker, who gets a
   * strike (and is terminated at `strikesToTerminate`). Conditional on the worker still holding
   * the job before arrival and on the strikes read, so a second delivery changes nothing.
   */
  async reassignLate(input: { jobId: string; workerId: string; strikesBefore: number; strikesToTerminate: number; now: string }): Promise<boolean> {
    const { jobId, workerId, now } = input;
    const strikes = input.strikesBefore + 1;
    const terminate = strikes >= input.strikesToTerminate;
    try {
      await writeTogether([
        {
          Update: {
            TableName: tableName,
            Key: keys.job(jobId),
            // A claim the customer did not confirm in time goes with the pro who made it.
            UpdateExpression:
              'SET #state = :booked, dispatch = :searching, #offers = :none, tried = :lateOnly, reassignedCount = reassignedCount + :one, version = version + :one, updatedAt = :now, acceptedBy = :null, acceptedAt = :null, arriveBy = :null, enRouteAt = :null, hourlyRate = :null REMOVE gsi2pk, gsi2sk, arrivalClaim',
            ConditionExpression: 'acceptedBy = :w AND #state IN (:accepted, :enRoute)',
            ExpressionAttributeNames: { '#state': 'state', '#offers': 'offers' },
            ExpressionAttributeValues: {
              ':booked': 'booked',
              ':searching': 'searching',
              ':none': {},
              ':one': 1,
              ':now': now,
              ':null': null,
              ':w': workerId,
              // A fresh round of dispatch: everyone may be offered it again but the worker who was late.
              ':lateOnly': [workerId],
              ':accepted': 'accepted',
              ':enRoute': 'en_route',
            },
          },
        },
        {
          Update: {
            TableName: tableName,
            Key: keys.worker(workerId),
            UpdateExpression: `SET strikes = :strikes, updatedAt = :now${terminate ? ', #status = :terminated, isAvailable = :false' : ''} REMOVE activeJobId`,
            ConditionExpression: 'activeJobId = :job AND strikes = :before',
            ExpressionAttributeNames: terminate ? { '#status': 'status' } : undefined,
            ExpressionAttributeValues: {
              ':strikes': strikes,
              ':now': now,
              ':job': jobId,
              ':before': input.strikesBefore,
              ...(terminate ? { ':terminated': 'terminated', ':false': false } : {}),
            },
          },
        },
      ]);
      return true;
    } catch (error) {
      if (error instanceof WriteCancelled) return false;
      throw error;
    }
  },
};
