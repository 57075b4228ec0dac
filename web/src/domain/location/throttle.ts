/**
 * One send per interval, the latest value winning: the server accepts one worker:loc per 2 s per
 * worker (shared/realtime.ts LOCATION_INTERVAL_MS), so sending faster would only be dropped. A value
 * that arrives too soon is held and sent when the interval is up, so the last move always reaches
 * the customer. A send that fails (offline) is not counted: the same value may be pushed again.
 */
export interface Clock {
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface Throttle<T> {
  /** Offers a value: sent now, held for the end of the interval, or dropped as the same as the last sent. */
  push: (value: T) => void;
  /** Drops a held value (sharing stopped, screen left). */
  cancel: () => void;
  /** Forgets what was sent, so the same place goes again (after a reconnect the server may have missed it). */
  forget: () => void;
}

/** Milliseconds until the next send is allowed: 0 when it may go now. */
export function throttleDelay(lastSentAt: number | null, now: number, intervalMs: number): number {
  if (lastSentAt === null) return 0;
  return Math.max(0, lastSentAt + intervalMs - now);
}

export function createThrottle<T>(
  intervalMs: number,
  send: (value: T) => boolean,
  options: { same?: (a: T, b: T) => boolean; clock?: Clock } = {},
): Throttle<T> {
  const clock = options.clock ?? realClock;
  let lastSentAt: number | null = null;
  let lastSent: { value: T } | null = null;
  let held: { value: T } | null = null;
  let timer: unknown = null;

  const attempt = (value: T) => {
    if (send(value)) {
      lastSentAt = clock.now();
      lastSent = { value };
    }
  };

  const fire = () => {
    timer = null;
    const value = held;
    held = null;
    if (value) attempt(value.value);
  };

  return {
    push(value) {
      if (lastSent && options.same?.(lastSent.value, value)) {
        // Back where the last send put it: nothing new for the customer, and nothing held either.
        held = null;
        return;
      }
      const wait = throttleDelay(lastSentAt, clock.now(), intervalMs);
      if (wait === 0 && timer === null) {
        attempt(value);
        return;
      }
      held = { value };
      if (timer === null) timer = clock.setTimeout(fire, wait);
    },
    cancel() {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      held = null;
    },
    forget() {
      lastSent = null;
    },
  };
}

/** Two fixes at the same place and accuracy: a position that did not change. */
export function samePlace(a: { latitude: number; longitude: number; accuracy: number }, b: { latitude: number; longitude: number; accuracy: number }): boolean {
  return a.latitude === b.latitude && a.longitude === b.longitude && a.accuracy === b.accuracy;
}
