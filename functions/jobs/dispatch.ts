import { dispatchDefaults } from '../../shared/domain/dispatch';
import { distanceKm, type LatLng } from '../../shared/domain/geo';
import { REOFFER_WINDOW_MINUTES } from '../../shared/domain/requests';
import { canTakeOffer, canTakeScheduledOffer, dispatchIndex } from './data/dispatch-index';
import { systemActor, type JobEventActor } from './data/job-history';
import { jobsRepo, type JobItem } from './data/jobs';
import { siblingsOf } from './crews';
import { workersRepo, type WorkerItem } from '../workers/data/workers';
import { env } from '../common/env';
import { jobOffered, jobSearching, noWorkerAvailable } from './job-events';
import { logger } from '../common/logger';
import { cancelSchedule, scheduleOnce } from '../common/scheduler';
import { mailRepo } from '../mail/data/mail';
import { noProFound } from '../mail/messages/customers';
import { offerReleaseAt, offerSecondsFor, reminderTimes, startOf, startTag, waitsForRelease, type ReminderKind } from './scheduling';

/**
 * Dispatch: keeps up to OFFERS_AT_ONCE offers outstanding on a job, nearest
 * untried workers first, each expiring after OFFER_SECONDS by its own one-time schedule; after
 * MAX_OFFERS workers, or when nobody is left, the customer is told no worker is available.
 */

/**
 * Deterministic timer names (a retry finds its own schedule). A worker is offered a job at most
 * once per dispatch cycle; `cycle` (dispatchCycle below) tells a later cycle's timers apart.
 */
const cycleSuffix = (cycle: number) => (cycle > 0 ? `-${cycle}` : '');
export const timerNames = {
  offer: (jobId: string, workerId: string, cycle = 0) => `offer-${jobId}-${workerId}${cycleSuffix(cycle)}`,
  /**
   * An offer the owner made by hand: named by the job's version it was made at, so it never meets
   * the name of a timer dispatch (or an earlier owner's offer to the same pro) already used.
   */
  ownerOffer: (jobId: string, workerId: string, version: number) => `offer-${jobId}-${workerId}-o${version}`,
  arrival: (jobId: string, workerId: string, cycle = 0) => `arrive-${jobId}-${workerId}${cycleSuffix(cycle)}`,
  /** The arrival timer re-made at the holder's time when an older one of the same name fired early. */
  arrivalAgain: (jobId: string, workerId: string, cycle = 0) => `arrive-${jobId}-${workerId}${cycleSuffix(cycle)}-again`,
  /** The arrival rule once more, when the customer's few minutes to answer a claim made in time are over. */
  arrivalAnswer: (jobId: string, workerId: string, cycle = 0) => `arrive-${jobId}-${workerId}${cycleSuffix(cycle)}-claim`,
  /**
   * A scheduled job's timers are named by its start: a reschedule makes new ones, and an old one
   * that fires anyway finds the job starting at another time and does nothing.
   */
  release: (jobId: string, startMs: number) => `release-${jobId}-${startTag(startMs)}`,
  reminder: (jobId: string, kind: ReminderKind, startMs: number) => `remind-${kind}-${jobId}-${startTag(startMs)}`,
  /** The arrival rule of a scheduled job whose start moved after the accept. */
  scheduledArrival: (jobId: string, workerId: string, startMs: number) => `arrive-${jobId}-${workerId}-s${startTag(startMs)}`,
};

/**
 * Which dispatch cycle a job is in, for its timers' names: a new one starts when a late pro loses it
 * and when its search is started afresh after finding nobody (so a pro offered it again gets a new
 * timer rather than meeting the name of the one that already fired).
 */
export function dispatchCycle(job: Pick<JobItem, 'reassignedCount' | 'reopenedCount'>): number {
  return (job.reassignedCount ?? 0) + (job.reopenedCount ?? 0);
}

export interface OfferTimerInput {
  jobId: string;
  workerId: string;
}
export type ArrivalTimerInput = OfferTimerInput;
/** The input of a scheduled job's timers: the start they were made for (the job's requestedTime then). */
export interface ScheduledTimerInput {
  jobId: string;
  start: string;
}
export interface ReminderTimerInput extends ScheduledTimerInput {
  kind: ReminderKind;
}

const MAX_ATTEMPTS = 5;

function originOf(job: JobItem): LatLng | null {
  return job.latitude !== null && job.longitude !== null ? { lat: job.latitude, lng: job.longitude } : null;
}

/** Outstanding offers: those not yet expired (an expired one waits only for its timer). */
function outstanding(job: JobItem, now: number): string[] {
  return Object.entries(job.offers ?? {})
    .filter(([, expiresAt]) => Date.parse(expiresAt) > now)
    .map(([workerId]) => workerId);
}

/**
 * How many offers a job keeps outstanding: OFFERS_AT_ONCE, shared out among a crew's jobs (at least
 * one each), so the crew asks about as many pros at once as one job would and the first job
 * dispatched does not take every pro nearby, leaving its siblings nobody to ask.
 */
function offersAtOnce(job: JobItem): number {
  return job.crew ? Math.max(1, Math.floor(env.OFFERS_AT_ONCE / job.crew.size)) : env.OFFERS_AT_ONCE;
}

/** The pros a crew job's siblings were offered or are held by (one BatchGet); none for a job of one pro. */
async function crewExcluded(job: JobItem): Promise<string[]> {
  const siblings = await siblingsOf(job);
  return siblings.flatMap((sibling) => [...(sibling.tried ?? []), ...(sibling.acceptedBy ? [sibling.acceptedBy] : [])]);
}

/**
 * Tops the job's offers up to OFFERS_AT_ONCE (a hire's first offer goes to the hired worker alone).
 * Safe to call any number of times and concurrently: each write is conditional on the version it
 * read, and a loser reads again.
 */
export async function offerNext(jobId: string): Promise<JobItem | undefined> {
  const expiries = new Map<string, string>();
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const job = await jobsRepo.findById(jobId);
    if (!job || (job.state !== 'booked' && job.state !== 'offered')) return job;
    const nowMs = Date.now();
    // A scheduled job is offered from a day before its start (its release timer calls again then).
    if (waitsForRelease(job, nowMs)) return job;
    // Offered to the pros who take scheduled work, on the clock now or not (dispatch-index.ts isSchedulable).
    const scheduled = startOf(job) !== null;
    const now = new Date(nowMs).toISOString();
    const open = outstanding(job, nowMs);
    const hireFirst = job.preferredWorkerId && job.tried.length === 0;
    const room = Math.min(
      hireFirst ? 1 : offersAtOnce(job) - open.length,
      env.MAX_OFFERS - job.tried.length,
    );
    // A pro is offered at most one job of a crew: whoever a sibling was offered or is held by is left out.
    const excluded = new Set([...job.tried, ...(room > 0 ? await crewExcluded(job) : [])]);
    let chosen: string[] = [];
    if (room > 0) {
      if (hireFirst) {
        const worker = await workersRepo.findById(job.preferredWorkerId!);
        // A hired worker who cannot take it now is skipped; the job goes to the nearest others.
        const free = worker !== undefined && (scheduled ? canTakeScheduledOffer(worker) : canTakeOffer(worker));
        chosen = free ? [worker.id] : [];
        if (!free) job.tried.push(job.preferredWorkerId!);
      }
      if (chosen.length === 0) {
        const found = await dispatchIndex.findNearest(job.category, originOf(job), excluded, hireFirst ? env.OFFERS_AT_ONCE : room, { later: scheduled });
        chosen = found.map((c) => c.workerId);
      }
    }
    if (chosen.length === 0) {
      if (open.length > 0 || Object.keys(job.offers ?? {}).length > 0) return job; // still waiting on offers or their timers
      // A timer retried after the change below was stored queues the customer's mail again (its key keeps one).
      if (job.dispatch === 'no_worker_available') return mailNoPro(job).then(() => job);
      if (await jobsRepo.markNoWorker(job, now)) {
        logger.info('No worker available', { jobId, offered: job.tried.length });
        await mailNoPro(job);
        await noWorkerAvailable(job);
        return jobsRepo.findById(jobId);
      }
      continue;
    }
    const offers: Record<string, string> = {};
    for (const workerId of chosen) {
      const expiresAt = expiries.get(workerId) ?? new Date(nowMs + offerSecondsFor(job, env.OFFER_SECONDS) * 1000).toISOString();
      expiries.set(workerId, expiresAt);
      offers[workerId] = expiresAt;
    }
    // The timers exist before the offers are visible: an offer is never left without its expiry.
    // A timer whose offer lost the race below finds nothing to expire and does nothing.
    await Promise.all(
      Object.entries(offers).map(([workerId, expiresAt]) =>
        scheduleOnce({
          name: timerNames.offer(jobId, workerId, dispatchCycle(job)),
          at: new Date(expiresAt),
          functionName: 'expire-offer',
          input: { jobId, workerId } satisfies OfferTimerInput,
        }),
      ),
    );
    if (await jobsRepo.addOffers(job, offers, now)) {
      logger.info('Job offered', { jobId, workers: chosen.length, round: job.tried.length });
      await jobOffered(job, chosen);
      return jobsRepo.findById(jobId);
    }
  }
  logger.warn('Dispatch gave up after repeated conflicts; the next timer retries', { jobId });
  return jobsRepo.findById(jobId);
}

/**
 * The customer's "no pro found" mail, once the job was marked so (a timer fired twice loses that
 * write's condition). Keyed by the dispatch cycle: the same search ending with nobody again (an
 * owner's offer by hand declined) is no second mail; a search started afresh is a new cycle.
 */
async function mailNoPro(job: JobItem): Promise<void> {
  const message = noProFound(job, dispatchCycle(job));
  await mailRepo.queue(message);
}

/**
 * Puts a new job and starts dispatch. A dispatch failure after the job is stored does not undo
 * the customer's request: it is logged and the job waits, visible as searching.
 */
export async function createAndDispatch(job: JobItem, together: Parameters<typeof jobsRepo.create>[1] = []): Promise<JobItem> {
  // A scheduled job's timers exist before the job does, so it is never stored without the one that
  // releases it to dispatch; if Scheduler refuses, nothing is stored and the customer may try again.
  await scheduleStartTimers(job);
  await jobsRepo.create(job, together);
  return dispatchNew(job);
}

/** Starts dispatch on a job just stored; a failure is logged and the job waits, visible as searching. */
export async function dispatchNew(job: JobItem): Promise<JobItem> {
  try {
    return (await offerNext(job.id)) ?? job;
  } catch (error) {
    logger.error('Dispatch failed for a new job', { jobId: job.id, errorName: (error as Error)?.name, errorMessage: (error as Error)?.message });
    return job;
  }
}

/**
 * The timers of a scheduled job's start: its release to dispatch (a day ahead; none when that is
 * already now) and its reminders still ahead. Nothing for an as-soon-as-possible job.
 */
export async function scheduleStartTimers(job: Pick<JobItem, 'id' | 'requestedTime'>, nowMs = Date.now()): Promise<void> {
  const startMs = startOf(job);
  if (startMs === null) return;
  const start = job.requestedTime!;
  const releaseAt = offerReleaseAt(startMs, nowMs);
  await Promise.all([
    ...(releaseAt > nowMs
      ? [scheduleOnce({ name: timerNames.release(job.id, startMs), at: new Date(releaseAt), functionName: 'release-scheduled-job', input: { jobId: job.id, start } satisfies ScheduledTimerInput })]
      : []),
    ...reminderTimes(startMs, nowMs).map(({ kind, at }) =>
      scheduleOnce({ name: timerNames.reminder(job.id, kind, startMs), at: new Date(at), functionName: 'send-job-reminder', input: { jobId: job.id, start, kind } satisfies ReminderTimerInput }),
    ),
  ]);
}

/** The timers of a start that no longer holds (rescheduled); best effort: one that fires anyway does nothing. */
export async function cancelStartTimers(jobId: string, start: string): Promise<void> {
  const startMs = Date.parse(start);
  if (Number.isNaN(startMs)) return;
  const names = [timerNames.release(jobId, startMs), ...(['day', 'hour'] as const).map((kind) => timerNames.reminder(jobId, kind, startMs))];
  await Promise.all(names.map((name) => cancelSchedule(name).catch(() => undefined)));
}

/**
 * The arrival rule of an accepted scheduled job whose start moved: a timer of its own at the new
 * deadline (named by the start, so each move has one). The earlier timer still fires, finds the
 * deadline later and re-arms itself, or finds the pro arrived; either way it changes nothing early.
 */
export async function scheduleArrivalForStart(jobId: string, workerId: string, arriveBy: string, startMs: number): Promise<void> {
  await scheduleOnce({
    name: timerNames.scheduledArrival(jobId, workerId, startMs),
    at: new Date(arriveBy),
    functionName: 'enforce-arrival',
    input: { jobId, workerId } satisfies ArrivalTimerInput,
  });
}

/** The arrival timer a reschedule made for that start; best effort (one that fires anyway finds nothing to do). */
export async function cancelScheduledArrival(jobId: string, workerId: string, startMs: number): Promise<void> {
  await cancelSchedule(timerNames.scheduledArrival(jobId, workerId, startMs)).catch(() => undefined);
}

/** Starts the arrival grace of an accepted job. */
export async function scheduleArrival(jobId: string, workerId: string, arriveBy: string, cycle = 0): Promise<void> {
  await scheduleOnce({
    name: timerNames.arrival(jobId, workerId, cycle),
    at: new Date(arriveBy),
    functionName: 'enforce-arrival',
    input: { jobId, workerId } satisfies ArrivalTimerInput,
  });
}

/**
 * An arrival timer fired before the holder's arriveBy: it was made for an earlier accept of the
 * same pro in the same round that was refused and whose timer could not be taken back, and the
 * later accept found it by name and kept it. The rule still needs a timer at the real time.
 */
export async function rescheduleArrival(job: Pick<JobItem, 'id' | 'arriveBy' | 'reassignedCount' | 'reopenedCount'>, workerId: string): Promise<void> {
  await scheduleOnce({
    name: timerNames.arrivalAgain(job.id, workerId, dispatchCycle(job)),
    at: new Date(job.arriveBy!),
    functionName: 'enforce-arrival',
    input: { jobId: job.id, workerId } satisfies ArrivalTimerInput,
  });
}

/**
 * The deadline passed with a claim made in time and not yet answered: the rule runs again when the
 * customer's time to answer is over. Named once per claim window, so a repeated delivery makes no second.
 */
export async function waitForAnswer(job: Pick<JobItem, 'id' | 'reassignedCount' | 'reopenedCount'>, workerId: string, at: number): Promise<void> {
  await scheduleOnce({
    name: timerNames.arrivalAnswer(job.id, workerId, dispatchCycle(job)),
    at: new Date(at),
    functionName: 'enforce-arrival',
    input: { jobId: job.id, workerId } satisfies ArrivalTimerInput,
  });
}

/** Arrived in time: the grace timer is no longer needed (if it fires anyway, it changes nothing). */
export async function cancelArrival(jobId: string, workerId: string, cycle = 0): Promise<void> {
  try {
    await cancelSchedule(timerNames.arrival(jobId, workerId, cycle));
  } catch (error) {
    logger.warn('Could not delete the arrival timer; it will find the job arrived and do nothing', {
      jobId,
      errorName: (error as Error)?.name,
    });
  }
}

/** The offer timers of workers whose offers ended (the job was taken, or they passed); best effort. */
export async function cancelOfferTimers(jobId: string, workerIds: readonly string[], cycle = 0): Promise<void> {
  await Promise.all(
    workerIds.map((workerId) => cancelSchedule(timerNames.offer(jobId, workerId, cycle)).catch(() => undefined)),
  );
}

export const dispatchSettings = () => ({
  offersAtOnce: env.OFFERS_AT_ONCE,
  offerSeconds: env.OFFER_SECONDS,
  maxOffers: env.MAX_OFFERS,
  arrivalGraceSeconds: env.ARRIVAL_GRACE_SECONDS,
  strikesToSuspend: dispatchDefaults.strikesToSuspend,
});

/**
 * Starts the search afresh on a job that found nobody (the customer's Try again, or a pro who came
 * on call nearby): the same job, nothing retyped. False when it was not waiting for that any more
 * (already reopened by a racing call, accepted, cancelled).
 */
export async function restartSearch(job: JobItem, message: string, actor: JobEventActor = systemActor): Promise<boolean> {
  if (!(await jobsRepo.reopen(job, new Date().toISOString(), actor))) return false;
  logger.info('Search started again', { jobId: job.id });
  await jobSearching(job, message);
  await offerNext(job.id);
  return true;
}

/** How far from a pro coming on call a job that found nobody is still "nearby" (the dispatch rings' widest reach). */
export const REOFFER_RADIUS_KM = 40;

/**
 * A pro of the trade came on call (clocked in, went available, or shared a position): the jobs near
 * them that found nobody in the last half hour are searched again, nearest first, so the pro is
 * offered them (with whoever else is now free nearer). Best effort: the pro's own call never fails
 * for it.
 */
export async function reofferNearby(worker: WorkerItem): Promise<void> {
  if (!canTakeOffer(worker)) return;
  try {
    const since = new Date(Date.now() - REOFFER_WINDOW_MINUTES * 60_000).toISOString();
    const here = worker.location ? { lat: worker.location.lat, lng: worker.location.lng } : null;
    // One Query per trade, however often a stored profile lists it.
    const trades = [...new Set(worker.categories)];
    const found = (await Promise.all(trades.map((category) => jobsRepo.listUnfilledSince(category, since)))).flat();
    const near = found
      .filter((job) => job.state === 'booked' && job.dispatch === 'no_worker_available')
      .map((job) => {
        const at = originOf(job);
        // A job with no position goes to any pro of its trade, as dispatch does; a located job only
        // to a pro known to be within reach.
        return { job, km: at ? (here ? distanceKm(here, at) : Number.POSITIVE_INFINITY) : 0 };
      })
      .filter(({ km }) => km <= REOFFER_RADIUS_KM)
      .sort((a, b) => a.km - b.km)
      .slice(0, env.OFFERS_AT_ONCE);
    for (const { job } of near) {
      await restartSearch(job, 'A professional just came on call near you: we are asking them now.');
    }
  } catch (error) {
    logger.warn('Could not re-offer unfilled jobs to a pro coming on call', { workerId: worker.id, errorName: (error as Error)?.name });
  }
}
