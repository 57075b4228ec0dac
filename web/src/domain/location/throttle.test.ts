import { describe, expect, it } from 'vitest';
import { createThrottle, samePlace, throttleDelay, type Clock } from './throttle';

/** A hand-driven clock: time moves only when the test says so. */
function fakeClock() {
  let now = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const clock: Clock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = nextId++;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (id) => {
      timers = timers.filter((t) => t.id !== id);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const due of timers.filter((t) => t.at <= now)) {
      timers = timers.filter((t) => t !== due);
      due.fn();
    }
  };
  return { clock, advance, pending: () => timers.length };
}

const at = (latitude: number) => ({ latitude, longitude: -122.4, accuracy: 10 });

describe('throttleDelay', () => {
  it('lets the first send go and waits out the rest of the interval after one', () => {
    expect(throttleDelay(null, 5_000, 2_000)).toBe(0);
    expect(throttleDelay(5_000, 5_500, 2_000)).toBe(1_500);
    expect(throttleDelay(5_000, 7_000, 2_000)).toBe(0);
  });
});

describe('createThrottle', () => {
  it('sends at most one value per 2 s, the latest winning at the end of the interval', () => {
    // Prepare
    const { clock, advance } = fakeClock();
    const sent: number[] = [];
    const throttle = createThrottle<{ latitude: number; longitude: number; accuracy: number }>(
      2_000,
      (fix) => {
        sent.push(fix.latitude);
        return true;
      },
      { clock, same: samePlace },
    );

    // Act
    throttle.push(at(1));
    advance(500);
    throttle.push(at(2));
    advance(500);
    throttle.push(at(3));
    advance(1_000);

    // Assess
    expect(sent).toEqual([1, 3]);
  });

  it('does not send a position that did not change', () => {
    const { clock, advance } = fakeClock();
    const sent: number[] = [];
    const throttle = createThrottle(2_000, (fix: ReturnType<typeof at>) => sent.push(fix.latitude) > 0, { clock, same: samePlace });
    throttle.push(at(1));
    advance(3_000);
    throttle.push(at(1));
    advance(3_000);
    expect(sent).toEqual([1]);
  });

  it('drops a held move that came back to the last sent place', () => {
    const { clock, advance, pending } = fakeClock();
    const sent: number[] = [];
    const throttle = createThrottle(2_000, (fix: ReturnType<typeof at>) => sent.push(fix.latitude) > 0, { clock, same: samePlace });
    throttle.push(at(1));
    throttle.push(at(2));
    throttle.push(at(1));
    advance(2_000);
    expect(sent).toEqual([1]);
    expect(pending()).toBe(0);
  });

  it('does not count a failed send, so the same place can be pushed again once back online', () => {
    const { clock, advance } = fakeClock();
    let online = false;
    const sent: number[] = [];
    const throttle = createThrottle(
      2_000,
      (fix: ReturnType<typeof at>) => {
        if (!online) return false;
        sent.push(fix.latitude);
        return true;
      },
      { clock, same: samePlace },
    );
    throttle.push(at(1));
    online = true;
    advance(100);
    throttle.push(at(1));
    expect(sent).toEqual([1]);
  });

  it('forgets a held value on cancel', () => {
    const { clock, advance, pending } = fakeClock();
    const sent: number[] = [];
    const throttle = createThrottle(2_000, (value: number) => sent.push(value) > 0, { clock });
    throttle.push(1);
    throttle.push(2);
    throttle.cancel();
    advance(5_000);
    expect(sent).toEqual([1]);
    expect(pending()).toBe(0);
  });

  it('sends the same place again after forget (a reconnect)', () => {
    const { clock, advance } = fakeClock();
    const sent: number[] = [];
    const throttle = createThrottle(2_000, (fix: ReturnType<typeof at>) => sent.push(fix.latitude) > 0, { clock, same: samePlace });
    throttle.push(at(1));
    advance(2_000);
    throttle.forget();
    throttle.push(at(1));
    expect(sent).toEqual([1, 1]);
  });
});
