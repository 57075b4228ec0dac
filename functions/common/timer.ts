import type { Context } from 'aws-lambda';
import { logger, withRequestContext } from './logger';

/**
 * The wrapper of functions that EventBridge Scheduler invokes with a schedule's JSON input.
 * Input that is not what the timer expects is logged and dropped (a retry would not fix it);
 * any other failure is thrown so Scheduler retries, which the timers are written to survive.
 */
export function timer<T>(name: string, parse: (input: unknown) => T | undefined, fn: (input: T) => Promise<void>) {
  return withRequestContext(async (event: unknown, _context?: Context): Promise<void> => {
    const input = parse(event);
    if (input === undefined) {
      logger.error('Timer input refused', { timer: name });
      return;
    }
    await fn(input);
  }, name);
}

/** `{ jobId, workerId }`: the input of both job timers. */
export function jobTimerInput(event: unknown): { jobId: string; workerId: string } | undefined {
  const e = event as { jobId?: unknown; workerId?: unknown } | null;
  const ok = (v: unknown) => typeof v === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(v);
  return e && ok(e.jobId) && ok(e.workerId) ? { jobId: e.jobId as string, workerId: e.workerId as string } : undefined;
}
