import { reconnect } from '../../../../shared/realtime-limits';

/**
 * The reconnect rule (the `reconnect` limits in shared/realtime-limits.ts): attempt n waits
 * min(30 s, 1 s · 2^(n-1)), then ±20 % of that at random, so that every tab a server restart
 * dropped does not come back in the same instant. After `reconnect.attempts` failed attempts the
 * client stops and offers a manual Reconnect.
 */
export const JITTER_RATIO = 0.2;

/** The wait before reconnect attempt `attempt` (1-based); `random` is Math.random's range [0, 1). */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const n = Math.max(1, Math.floor(attempt));
  const base = Math.min(reconnect.maxDelayMs, reconnect.initialDelayMs * 2 ** (n - 1));
  const jitter = (random() * 2 - 1) * JITTER_RATIO * base;
  return Math.round(base + jitter);
}

/** Whether another attempt is allowed after `failures` consecutive failed ones. */
export function mayRetry(failures: number): boolean {
  return failures <= reconnect.attempts;
}
