import { REMINDER_KINDS, type ReminderKind } from './scheduling';

/**
 * The inputs of a scheduled job's timers (functions/jobs/dispatch.ts scheduleStartTimers): the job
 * and the start they were made for, and for a reminder which one. Anything else is refused.
 */
const isId = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v);
const isInstant = (v: unknown): v is string => typeof v === 'string' && v.length <= 40 && !Number.isNaN(Date.parse(v));

export function scheduledTimerInput(event: unknown): { jobId: string; start: string } | undefined {
  const e = event as { jobId?: unknown; start?: unknown } | null;
  return e && isId(e.jobId) && isInstant(e.start) ? { jobId: e.jobId, start: e.start } : undefined;
}

export function reminderTimerInput(event: unknown): { jobId: string; start: string; kind: ReminderKind } | undefined {
  const base = scheduledTimerInput(event);
  const kind = (event as { kind?: unknown } | null)?.kind;
  return base && REMINDER_KINDS.includes(kind as ReminderKind) ? { ...base, kind: kind as ReminderKind } : undefined;
}
