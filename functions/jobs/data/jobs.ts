import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ArrivalClaim, ArrivalEvidence } from '../../../shared/domain/arrival';
import type { JobState } from '../../../shared/domain/booking-status';
import { phoneDigits, requestNumber } from '../../../shared/domain/requests';
import { jobEntity, trackingNumberEntity, workerEntity, workerOfferEntity, type JobItem, type TrackingNumberItem, type WorkerOfferItem } from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { batchGet } from '../../common/data/batch';
import { deleteOf, increment, incrementFrom, isNew, listAppend, putOf, updateOf, valueOf } from '../../common/data/expressions';
import { queryAll } from '../../common/data/query';
import { WriteCancelled, type WriteAction } from '../../common/data/transact';
import { tryUpdate } from '../../common/data/write';
import { customerActor, jobHistory, systemActor, workerActor, type JobEventActor } from './job-history';
import { isId } from '../../../shared/schemas/id';
import { stats, writeCounted } from '../../owner/data/stats';
import { penaltiesRepo, type WorkerPenaltyItem } from '../../arrival/data/penalties';
import type { MailMessage } from '../../mail/message';
import { outboxPuts } from '../../mail/data/mail';
import type { WorkerStatus } from '../../../shared/schemas/worker';
import type { Update } from '../../common/data/expressions';
import { offerReleaseAt, startOf } from '../scheduling';

/** The late pro's strike as the job's timeline tells it. */
function strikeDetail(strikes: number, limit: number, suspended: boolean): string {
  const count = `strike ${strikes} of ${limit}`;
  return suspended ? `Late arrival: ${count}; the pro is suspended until the owner decides.` : `Late arrival: ${count}.`;
}

/**
 * Jobs. A booking's job sits beside its booking; a service request
 * and a hire are their job. Every change is conditional on the state it expects; dispatch changes
 * also on `version`, so two timers or a timer and an accept never both win.
 */
export type { JobItem, JobKind } from '../../../shared/entities';

export interface NewJob {
  id: string;
  kind: JobItem['kind'];
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
  requestedTime?: string | null;
  estimate?: JobItem['estimate'];
  createdAt: string;
}

/** A new job item, not yet offered to anyone. */
export function jobItem(input: NewJob): JobItem {
  const located = typeof input.latitude === 'number' && typeof input.longitude === 'number' && !(input.latitude === 0 && input.longitude === 0);
  // Every door's job is among its customer's requests: a booking is verified, paid and rated as one.
  return jobEntity.withIndexKeys({
    ...jobEntity.key(input.id),
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
    requestedTime: input.requestedTime ?? null,
    estimate: input.estimate ?? null,
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
    // A scheduled job's search begins when its offers open, so the owner's "searching too long" counts from then.
    searchingSince: searchBeginsAt(input.requestedTime ?? null, input.createdAt),
    searchCustomer: [input.customerName, phoneDigits(input.customerPhone), input.customerEmail ?? ''].join(' ').toLowerCase(),
    searchJob: [requestNumber(input.bookingId ?? input.id), input.address, input.description].join(' ').toLowerCase(),
    createdAt: input.createdAt,
    updatedAt: input.createdAt,
  });
}

/**
 * The number screens show for a job: a booking's is its booking's (the id in the link /book sent
 * the customer to), a request's or a hire's its own; last 8 characters, upper case.
 */
export function jobNumber(job: Pick<JobItem, 'id' | 'bookingId'>): string {
  return requestNumber(job.bookingId ?? job.id);
}

/** When a job's search begins: at once, or for a scheduled job when its offers open (a day before its start). */
function searchBeginsAt(requestedTime: string | null, now: string): string {
  const start = startOf({ requestedTime });
  return start === null ? now : new Date(offerReleaseAt(start, Date.parse(now))).toISOString();
}

/** Why a conditional change did not happen: the caller decides which 4xx that is. */
export class JobChangeRefused extends Error {
  constructor(readonly current: JobItem | undefined, readonly workerRefused = false) {
    super('Job change refused');
    this.name = 'JobChangeRefused';
  }
}

const offerTtlSeconds = (expiresAt: string) => Math.ceil(Date.parse(expiresAt) / 1000) + 24 * 3600;

const queryJobs = (range: ReturnType<typeof jobEntity.range>) => queryAll<JobItem>(range);

/** The timeline step each of a pro's moves records. */
const stepEvents = { enRouteAt: 'en_route', arrivedAt: 'arrived', startedAt: 'started' } as const;

/** The refusal of a job change that lost its condition, with the job as it is now. */
async function refusedChange(jobId: string): Promise<never> {
  throw new JobChangeRefused(await jobsRepo.findById(jobId));
}

/**
 * A conditional job update together with the owner's counters it moves (functions/owner/data/stats.ts):
 * the job after it, or undefined when its condition did not hold (then no counter moved either).
 */
async function updateCounting(jobId: string, update: Update<JobItem>, counters: WriteAction[]): Promise<JobItem | undefined> {
  if (counters.length === 0) return tryUpdate(update);
  try {
    await writeCounted([{ Update: update }, ...counters]);
  } catch (error) {
    if (error instanceof WriteCancelled) return undefined;
    throw error;
  }
  return jobsRepo.findById(jobId);
}

/**
 * A held job back to dispatch, a fresh round: offered to everyone again but `workerId` (the pro who
 * lost it), in a new dispatch cycle (reassignedCount), so the next round's timers never meet the
 * names of this one's.
 */
function freshRound(workerId: string, now: string) {
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

export const jobsRepo = {
  /**
   * Puts a new job and its tracking number; `with` are writes that happen together with it (a
   * booking's own item).
   */
  async create(job: JobItem, together: WriteAction[] = []): Promise<void> {
    const lookup: TrackingNumberItem = {
      ...trackingNumberEntity.key(jobNumber(job), phoneDigits(job.customerPhone), job.id),
      entity: 'tracking-number',
      jobId: job.id,
    };
    await writeCounted([...together, { Put: putOf(jobEntity, job, isNew) }, { Put: putOf(trackingNumberEntity, lookup) },
      jobHistory.putAction(job.id, { type: 'created', actor: customerActor(job), at: job.createdAt }), ...stats.jobSent(job)]);
  },

  /** The job a screen's number and the phone it was made with point at, if any. */
  async findByNumber(number: string, phone: string): Promise<JobItem | undefined> {
    const [lookup] = await queryAll({ ...trackingNumberEntity.range(number, phoneDigits(phone)), limit: 1 });
    return lookup ? jobsRepo.findById(lookup.jobId, false) : undefined;
  },

  /** Removes the workers' side of offers the job item no longer has (their lists re-check the job anyway). */
  async dropOffers(jobId: string, workerIds: readonly string[]): Promise<void> {
    await Promise.all(workerIds.map((workerId) => dynamo.send(new DeleteCommand(deleteOf(workerOfferEntity, workerOfferEntity.key(workerId, jobId))))));
  },

  /** Jobs of a trade whose search ended with nobody since `since` (ISO), oldest first. */
  async listUnfilledSince(category: string, since: string): Promise<JobItem[]> {
    return queryAll({ ...jobEntity.indexes.unfilled.range(category), sk: { ge: since }, limit: 50 });
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

  /**
   * The customer withdraws a job nobody has accepted. Conditional on that (and on being theirs),
   * so an accept racing it leaves exactly one of the two. Answers the job as it was, for its offers.
   */
  async cancel(jobId: string, customerId: string, now: string): Promise<JobItem> {
    const before = await tryUpdate(
      updateOf(jobEntity, jobEntity.key(jobId), {
        set: { state: 'cancelled', dispatch: 'done', cancelledAt: now, cancelledBy: 'customer', offers: {}, version: increment(), updatedAt: now },
        // Nobody holds a job still booked or offered.
        known: { acceptedBy: null },
        if: (c) => c.and(c.exists('pk'), c.eq('customerId', customerId), c.oneOf('state', ['booked', 'offered'])),
      }),
      'ALL_OLD',
    );
    if (!before) return refusedChange(jobId);
    await jobHistory.record(jobId, { type: 'cancelled', actor: customerActor(before), at: now });
    return before;
  },

  /**
   * The customer moves a scheduled job's start before the pro is on the way. Conditional on the
   * version read (so a pro's On my way, an accept or a second reschedule racing it leaves one
   * result). A job nobody holds starts its search afresh for the new time: offers standing for the
   * old one are withdrawn and every pro may be asked again (it leaves the unfilled jobs). A
   * pro who accepted keeps it, with the arrival deadline counted from the new start.
   */
  async reschedule(job: JobItem, input: { requestedTime: string; arriveBy: string | null; now: string }): Promise<JobItem> {
    const searchingSince = searchBeginsAt(input.requestedTime, input.now);
    const held = job.state === 'accepted';
    const moved = await tryUpdate(
      updateOf(jobEntity, jobEntity.key(job.id), {
        set: {
          requestedTime: input.requestedTime,
          ...(held
            ? { arriveBy: input.arriveBy }
            : { state: 'booked' as const, dispatch: 'searching' as const, offers: {}, tried: [], searchingSince }),
          version: increment(),
          updatedAt: input.now,
        },
        stored: job,
        if: (c) => c.and(c.eq('version', job.version), c.eq('customerId', job.customerId), c.oneOf('state', ['booked', 'offered', 'accepted'])),
      }),
      'ALL_NEW',
    );
    if (!moved) return refusedChange(job.id);
    await jobHistory.record(job.id, { type: 'rescheduled', actor: customerActor(job), workerId: job.acceptedBy, detail: `New start ${input.requestedTime}`, at: input.now });
    return moved;
  },

  /**
   * Records that a reminder of a scheduled job went out for this start; false when it already had
   * (a timer delivered twice), or the job no longer starts then or is past the point of reminding.
   */
  async markReminded(jobId: string, kind: 'day' | 'hour', start: string, now: string): Promise<JobItem | undefined> {
    const field = kind === 'day' ? 'dayReminderSentFor' : 'hourReminderSentFor';
    const marked = await tryUpdate(
      updateOf(jobEntity, jobEntity.key(jobId), {
        set: { [field]: start, updatedAt: now },
        if: (c) =>
          c.and(
            c.eq('requestedTime', start),
            c.oneOf('state', ['booked', 'offered', 'accepted', 'en_route']),
            c.or(c.notExists(field), c.ne(field, start)),
          ),
      }),
      'ALL_NEW',
    );
    if (marked) await jobHistory.record(jobId, { type: 'reminded', actor: systemActor, workerId: marked.acceptedBy, detail: kind === 'day' ? 'A day before the start' : 'An hour before the start', at: now });
    return marked;
  },

  /**
   * The customer cancels a scheduled job a pro accepted, before they are on the way: the pro is
   * freed in the same write. Conditional on the version read, so of this and the pro's On my way
   * exactly one lands. Answers the job as it was.
   */
  async cancelScheduledHeld(job: JobItem, now: string): Promise<JobItem> {
    try {
      await writeCounted([
        {
          Update: updateOf(jobEntity, jobEntity.key(job.id), {
            set: { state: 'cancelled', dispatch: 'done', cancelledAt: now, cancelledBy: 'customer', offers: {}, version: increment(), updatedAt: now },
            remove: ['arrivalClaim'],
            stored: job,
            if: (c) => c.and(c.eq('version', job.version), c.eq('customerId', job.customerId), c.eq('state', 'accepted')),
          }),
        },
        ...(job.acceptedBy
          ? [
              {
                Update: updateOf(workerEntity, workerEntity.key(job.acceptedBy), {
                  set: { updatedAt: now },
                  remove: ['activeJobId'],
                  if: (c) => c.eq('activeJobId', job.id),
                }),
              },
            ]
          : []),
        jobHistory.putAction(job.id, { type: 'cancelled', actor: customerActor(job), workerId: job.acceptedBy, at: now }),
      ]);
    } catch (error) {
      if (error instanceof WriteCancelled) return refusedChange(job.id);
      throw error;
    }
    return job;
  },

  async findById(id: string, consistent = true): Promise<JobItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: jobEntity.key(id), ConsistentRead: consistent }));
    return out.Item as JobItem | undefined;
  },

  /** A job of this customer's; another customer's (or a malformed id) answers as a missing one. */
  async findCustomersJob(id: string, customerId: string, consistent = true): Promise<JobItem | undefined> {
    const job = isId(id) ? await jobsRepo.findById(id, consistent) : undefined;
    return job?.customerId === customerId ? job : undefined;
  },

  async findMany(ids: readonly string[]): Promise<JobItem[]> {
    return batchGet<JobItem>([...new Set(ids)].map((id) => jobEntity.key(id)));
  },

  /** The customer's requests and hires, oldest first. */
  async listForCustomer(customerId: string): Promise<JobItem[]> {
    return queryJobs(jobEntity.indexes.customerRequests.range(customerId));
  },

  /** The jobs a worker holds now (accepted to in progress). */
  async listHeldBy(workerId: string): Promise<JobItem[]> {
    return queryJobs(jobEntity.indexes.workerJobs.range(workerId, 'ACTIVE'));
  },

  /** The jobs a worker finished, oldest first. */
  async listCompletedBy(workerId: string): Promise<JobItem[]> {
    return queryJobs(jobEntity.indexes.workerJobs.range(workerId, 'DONE'));
  },

  /** Ids of the jobs offered to a worker (the job item decides whether each offer still stands). */
  async offeredJobIds(workerId: string): Promise<string[]> {
    const offers = await queryAll(workerOfferEntity.range(workerId));
    return offers.map((offer) => offer.jobId);
  },

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

  /**
   * The first accept wins: the job moves only while it is offered and this worker's offer stands,
   * and the worker takes it only while active and holding no other job. One transaction.
   */
  async accept(input: { jobId: string; workerId: string; workerName?: string; hourlyRate: number; now: string; arriveBy: string; sentAt?: string }): Promise<void> {
    const { jobId, workerId, now } = input;
    const sentAt = input.sentAt ?? (await jobsRepo.findById(jobId))?.createdAt ?? now;
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
        throw new JobChangeRefused(await jobsRepo.findById(jobId), error.refusedAt(1) && !error.refusedAt(0));
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

  /** Completes the job and frees the worker for the next one, together. */
  async complete(input: { jobId: string; workerId: string; now: string; totalHours: number; reworkCount?: number }): Promise<JobItem> {
    const { jobId, workerId, now } = input;
    if (input.reworkCount) return jobsRepo.completeRework({ ...input, reworkCount: input.reworkCount });
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

  /**
   * The customer's answer to the finished work: approved moves it to 'verified' (the worker may
   * invoice it); rejected sends it back to the worker in progress with the notes, the hours so far
   * kept. Only from 'completed' and only the job's own customer, so a second answer changes nothing.
   */
  async recordVerification(input: { jobId: string; customerId: string; approved: boolean; notes: string | null; now: string }): Promise<JobItem> {
    const { jobId, now } = input;
    // Where the job is filed among its worker's follows from who finished it and when: the job as
    // read, which a completed job keeps until this answer (the condition holds its end to it).
    const done = await jobsRepo.findById(jobId);
    if (!done || done.state !== 'completed') return refusedChange(jobId);
    const answer = { verificationNotes: input.notes, verificationAt: now, version: increment(), updatedAt: now };
    const answered = await updateCounting(
      jobId,
      updateOf(jobEntity, jobEntity.key(jobId), {
        set: input.approved
          ? { state: 'verified', verificationStatus: 'approved', ...answer }
          : {
              state: 'in_progress',
              verificationStatus: 'rejected',
              ...answer,
              clientNotes: input.notes,
              reworkCount: incrementFrom(0),
              priorHours: valueOf('totalHours'),
              startedAt: now,
              // Back among the jobs the worker holds (their today's list), by when it came back.
              endedAt: null,
            },
        stored: done,
        if: (c) => c.and(c.exists('pk'), c.eq('state', 'completed'), c.eq('customerId', input.customerId), c.eq('endedAt', done.endedAt)),
      }),
      // Verified once per job: from 'verified' there is no way back to 'completed'.
      input.approved ? [stats.jobVerified(now)] : [],
    );
    if (!answered) return refusedChange(jobId);
    await jobHistory.record(jobId, {
      type: input.approved ? 'verification_approved' : 'rework_requested',
      actor: customerActor(answered),
      detail: input.notes,
      at: now,
    });
    return answered;
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

  /**
   * The customer's answer to the claim they were shown (`claimedAt` names it): yes moves the job to
   * arrived as of the claim, no removes the claim. Conditional on that claim still standing and its
   * pro still holding the job before arrival, so of a confirm, a second confirm and the arrival timer
   * exactly one decides.
   */
  async answerArrivalClaim(input: {
    jobId: string;
    customerId: string;
    workerId: string;
    claimedAt: string;
    arrived: boolean;
    now: string;
    arriveBy: string | null;
  }): Promise<JobItem> {
    const evidence: ArrivalEvidence = { method: 'customer', claimedAt: input.claimedAt, confirmedAt: input.now };
    const answered = await updateCounting(
      input.jobId,
      updateOf(jobEntity, jobEntity.key(input.jobId), {
        set: input.arrived
          ? { state: 'arrived', arrivedAt: input.claimedAt, arrivalEvidence: evidence, version: increment(), updatedAt: input.now }
          : { updatedAt: input.now },
        remove: ['arrivalClaim'],
        if: (c) =>
          c.and(
            c.eq('customerId', input.customerId),
            c.eq('acceptedBy', input.workerId),
            c.oneOf('state', ['accepted', 'en_route']),
            c.eq(c.entry('arrivalClaim', 'claimedAt'), input.claimedAt),
          ),
      }),
      // A confirmed claim is an arrival as of the claim: on time when it was made by arriveBy.
      input.arrived ? [stats.arrival(input.claimedAt, input.arriveBy === null || input.claimedAt <= input.arriveBy)] : [],
    );
    if (!answered) return refusedChange(input.jobId);
    if (input.arrived) {
      await jobHistory.record(input.jobId, {
        type: 'arrived',
        actor: customerActor(answered),
        workerId: input.workerId,
        detail: 'The customer confirmed the pro had arrived.',
        at: input.now,
      });
    }
    return answered;
  },

  /** Payment settled: verified → paid, once (a repeated or late event finds it paid and changes nothing). */
  async markPaid(jobId: string, now: string): Promise<boolean> {
    const paid = await tryUpdate(
      updateOf(jobEntity, jobEntity.key(jobId), {
        // Nothing left for the owner to act on.
        set: { state: 'paid', paidAt: now, version: increment(), updatedAt: now },
        remove: ['paymentFailedAt'],
        if: (c) => c.eq('state', 'verified'),
      }),
    );
    if (paid) await jobHistory.record(jobId, { type: 'paid', actor: systemActor, at: now });
    return paid !== undefined;
  },

  /**
   * A payment attempt failed: the job comes back among the open jobs, so the owner's "Needs
   * attention" finds it, until it is paid. Only while verified and unpaid, and once per failure time.
   */
  async markPaymentFailed(jobId: string, now: string): Promise<boolean> {
    const marked = await tryUpdate(
      updateOf(jobEntity, jobEntity.key(jobId), {
        set: { paymentFailedAt: now, updatedAt: now },
        known: { state: 'verified' },
        if: (c) => c.eq('state', 'verified'),
      }),
    );
    if (marked) await jobHistory.record(jobId, { type: 'payment_failed', actor: systemActor, at: now });
    return marked !== undefined;
  },

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

/**
 * The states of a held job that go back to dispatch when the owner suspends or terminates its pro:
 * the work has not started (accepted, on the way, or at the door). Work in progress stays with the
 * pro for the owner to settle: its hours and the pro's invoice depend on the pro who did it.
 */
export const RELEASED_WITH_THE_PRO: readonly JobState[] = ['accepted', 'en_route', 'arrived'];

/** What completing a job (the first time or after rework) sets: among the worker's finished jobs, by when it ended. */
function completion(now: string, totalHours: number) {
  return { state: 'completed', dispatch: 'done', endedAt: now, totalHours, version: increment(), updatedAt: now } as const;
}

/** What a job in progress is known to be: held by its worker (the condition says so), never cancelled. */
function completing(workerId: string) {
  return { acceptedBy: workerId, cancelledAt: undefined };
}
