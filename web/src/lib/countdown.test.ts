import { describe, expect, it } from 'vitest';
import { secondsLeft, secondsPhrase } from './countdown';

describe('secondsLeft', () => {
  it('counts whole seconds up, so the last second shows until the deadline', () => {
    // Prepare
    const deadline = 10_000;

    // Act
    const shown = [2_000, 2_001, 9_000, 9_999, 10_000, 12_000].map((now) => secondsLeft(deadline, now));

    // Assess
    expect(shown).toEqual([8, 8, 1, 1, 0, 0]);
  });
});

describe('secondsPhrase', () => {
  it('says "second" for one and "seconds" otherwise', () => {
    expect(secondsPhrase(1)).toBe('1 second');
    expect(secondsPhrase(8)).toBe('8 seconds');
    expect(secondsPhrase(0)).toBe('0 seconds');
  });
});
