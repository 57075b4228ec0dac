import { describe, expect, it } from 'vitest';
import { reconnect } from '../../../../shared/realtime';
import { JITTER_RATIO, mayRetry, reconnectDelayMs } from './backoff';

describe('reconnect backoff', () => {
  it('doubles from 1 s and stops growing at 30 s when the jitter is neutral', () => {
    // Prepare: random() of 0.5 adds no jitter.
    const neutral = () => 0.5;

    // Act
    const delays = Array.from({ length: reconnect.attempts }, (_, i) => reconnectDelayMs(i + 1, neutral));

    // Assess
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000, 30000]);
  });

  it('moves each wait by at most a fifth either way', () => {
    // Prepare
    const lowest = () => 0;
    const highest = () => 0.999999;

    // Act
    const low = [1, 3, 10].map((n) => reconnectDelayMs(n, lowest));
    const high = [1, 3, 10].map((n) => reconnectDelayMs(n, highest));

    // Assess
    expect(JITTER_RATIO).toBe(0.2);
    expect(low).toEqual([800, 3200, 24000]);
    expect(high).toEqual([1200, 4800, 36000]);
  });

  it('allows ten attempts and no eleventh', () => {
    // Act
    const allowed = Array.from({ length: 12 }, (_, i) => mayRetry(i + 1));

    // Assess
    expect(allowed.filter(Boolean)).toHaveLength(10);
    expect(mayRetry(10)).toBe(true);
    expect(mayRetry(11)).toBe(false);
  });
});
