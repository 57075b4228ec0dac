import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecurringDef } from '../../shared/routes';

/**
 * The local runtime's stand-in for EventBridge Scheduler's recurring (cron) schedules: each job of
 * shared/routes.ts `recurring` runs once when the stack starts (its daily run may have fallen due
 * while it was stopped, and the mail sweeper sends what a crash left in the outbox; the jobs are
 * idempotent) and then every day at its UTC time, or every so many minutes, with its sample event
 * as input, as the cloud schedule sends it.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The next time at or after `now` (exclusive) when a daily job at hour:minute UTC runs. */
export function nextDailyRun(at: { hour: number; minute: number }, now: Date): Date {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), at.hour, at.minute));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/**
 * The next time after `now` when a job run every `minutes` minutes runs: the minutes of the hour
 * that divide by it, as `cron(0/<minutes> * * * ? *)` (minutes divides 60, so every hour starts one).
 */
export function nextPeriodicRun(minutes: number, now: Date): Date {
  const period = minutes * 60_000;
  return new Date((Math.floor(now.getTime() / period) + 1) * period);
}

/** When the job runs next after `now`. */
export function nextRun(job: RecurringDef, now: Date): Date {
  return job.everyMinutes !== undefined ? nextPeriodicRun(job.everyMinutes, now) : nextDailyRun(job.dailyAtUtc, now);
}

export type RunJob = (name: string, input: unknown) => Promise<void>;

export interface RecurringJobs {
  stop(): void;
}

/**
 * `atStart`: fields added to a job's input for its run at start alone, by job name (the mail
 * sweeper is told when this stack started, so it takes over what the stack before it left).
 */
export function startRecurringJobs(
  jobs: readonly RecurringDef[],
  run: RunJob,
  options: { runAtStart?: boolean; atStart?: Record<string, Record<string, unknown>> } = {},
): RecurringJobs {
  const handles = new Map<string, NodeJS.Timeout>();
  let stopped = false;
  const fire = (job: RecurringDef, extra: Record<string, unknown> = {}) => {
    const input = { ...(JSON.parse(readFileSync(path.join(root, 'events', `${job.name}.json`), 'utf8')) as Record<string, unknown>), ...extra };
    run(job.name, input).catch((error: unknown) => console.error(`Recurring job ${job.name} failed:`, error));
  };
  const arm = (job: RecurringDef) => {
    if (stopped) return;
    const delay = nextRun(job, new Date()).getTime() - Date.now();
    // unref: a pending run never keeps the process alive on its own.
    handles.set(job.name, setTimeout(() => {
      fire(job);
      arm(job);
    }, delay).unref());
  };
  for (const job of jobs) {
    if (options.runAtStart !== false) fire(job, options.atStart?.[job.name]);
    arm(job);
  }
  return {
    stop() {
      stopped = true;
      for (const handle of handles.values()) clearTimeout(handle);
      handles.clear();
    },
  };
}
