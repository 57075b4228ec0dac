/**
 * When the parts of a scheduled job happen, as pure arithmetic on instants. A scheduled job's
 * `requestedTime` is an instant (ISO, UTC); every window here is a fixed number of milliseconds
 * before or after it, never a wall-clock shift, so a daylight-saving change between now and the
 * start moves nothing: the day-before reminder is exactly 24 hours before the start.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A scheduled job is offered this long before its start (or at once if the start is sooner). */
export const SCHEDULED_OFFER_LEAD_MS = 24 * HOUR_MS;

/**
 * How long an offer of a scheduled job stands. An on-demand offer lapses in 120 s because the
 * customer is waiting for someone to come now; a scheduled job's pro is choosing a slot in their
 * day, often between jobs, and the start is hours away, so half an hour costs the customer nothing
 * while letting a pro who is busy on a job answer when they put their tools down.
 */
export const SCHEDULED_OFFER_SECONDS = 30 * 60;

/** The reminders, each sent once to the customer and to the pro who accepted. */
export const REMINDERS = {
  day: { beforeMs: 24 * HOUR_MS, label: 'tomorrow' },
  hour: { beforeMs: HOUR_MS, label: 'in an hour' },
} as const;
export type ReminderKind = keyof typeof REMINDERS;
export const REMINDER_KINDS = Object.keys(REMINDERS) as ReminderKind[];

/** The start as milliseconds, or null for an as-soon-as-possible job (or one stored before scheduling). */
export function startOf(job: { requestedTime?: string | null }): number | null {
  if (!job.requestedTime) return null;
  const ms = Date.parse(job.requestedTime);
  return Number.isNaN(ms) ? null : ms;
}

/** When dispatch may start offering the job: 24 hours ahead of the start, never before now. */
export function offerReleaseAt(startMs: number, nowMs: number): number {
  return Math.max(nowMs, startMs - SCHEDULED_OFFER_LEAD_MS);
}

/** Whether dispatch must still hold the job back (its offers open later). */
export function waitsForRelease(job: { requestedTime?: string | null }, nowMs: number): boolean {
  const start = startOf(job);
  return start !== null && start - SCHEDULED_OFFER_LEAD_MS > nowMs;
}

/**
 * The reminders still ahead: each at its fixed distance before the start. One whose moment has
 * already passed (a job booked for 3 hours from now has no day-before reminder) is not sent late.
 */
export function reminderTimes(startMs: number, nowMs: number): { kind: ReminderKind; at: number }[] {
  return REMINDER_KINDS.map((kind) => ({ kind, at: startMs - REMINDERS[kind].beforeMs })).filter(({ at }) => at > nowMs);
}

/**
 * The arrival deadline of an accepted job. On demand, the grace runs from the accept. Scheduled,
 * it runs from the start, but never gives less than the grace from the accept: a pro who takes a
 * job five minutes before its start still has the full grace to get there (the later of the two).
 */
export function arrivalDeadlineMs(startMs: number | null, acceptedMs: number, graceMs: number): number {
  return startMs === null ? acceptedMs + graceMs : Math.max(acceptedMs, startMs) + graceMs;
}

/** Offers of a scheduled job stand longer than on-demand ones (SCHEDULED_OFFER_SECONDS). */
export function offerSecondsFor(job: { requestedTime?: string | null }, onDemandSeconds: number): number {
  return startOf(job) === null ? onDemandSeconds : Math.max(onDemandSeconds, SCHEDULED_OFFER_SECONDS);
}

/** The schedule-name tag of a start: seconds since the epoch in base 36 (7 characters until 2059). */
export function startTag(startMs: number): string {
  return Math.floor(startMs / 1000).toString(36);
}
