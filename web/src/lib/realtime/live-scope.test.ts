import { describe, expect, it } from 'vitest';
import { holdLiveScope, isLiveScoped } from './live-scope';

describe('live scope', () => {
  it('covers held jobs until the last holder lets go', () => {
    // Prepare
    const first = holdLiveScope(['a', 'b']);
    const second = holdLiveScope(['a']);

    // Act
    first();
    const afterFirst = [isLiveScoped('a'), isLiveScoped('b')];
    second();

    // Assess
    expect(afterFirst).toEqual([true, false]);
    expect(isLiveScoped('a')).toBe(false);
    expect(isLiveScoped(null)).toBe(false);
  });
});
