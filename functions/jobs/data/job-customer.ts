import type { ArrivalEvidence } from '../../../shared/domain/arrival';
import { jobEntity, type JobItem, workerEntity } from '../../../shared/entities';
import { increment, incrementFrom, updateOf, valueOf } from '../../common/data/expressions';
import { WriteCancelled } from '../../common/data/transact';
import { tryUpdate } from '../../common/data/write';
import { customerActor, jobHistory, systemActor } from './job-history';
import { stats, writeCounted } from '../../owner/data/stats';
import { jobReads } from './job-reads';
import { searchBeginsAt } from './job-item';
import { refusedChange, updateCounting } from './job-writes';
import { declareTableUse } from '../../../shared/entities';

/**
 * The customer's moves on a job: cancelling, moving a scheduled start (and its reminders),
 * answering the pro's arrival claim and the finished work.
 */
export const jobCustomer = {
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

  /**
   * The customer's answer to the finished work: approved moves it to 'verified' (the worker may
   * invoice it); rejected sends it back to the worker in progress with the notes, the hours so far
   * kept. Only from 'completed' and only the job's own customer, so a second answer changes nothing.
   */
  async recordVerification(input: { jobId: string; customerId: string; approved: boolean; notes: string | null; now: string }): Promise<JobItem> {
    const { jobId, now } = input;
    // Where the job is filed among its worker's follows from who finished it and when: the job as
    // read, which a completed job keeps until this answer (the condition holds its end to it).
    const done = await jobReads.findById(jobId);
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
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEntity, workerEntity], writes: [jobEntity, workerEntity] });
