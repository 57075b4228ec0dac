import { describe, expect, it } from 'vitest';
import { backgroundVideoAllowed } from './background-video';

describe('the background video', () => {
  it('plays only without reduced motion and without a data saver', () => {
    expect(backgroundVideoAllowed({ reducedMotion: false, saveData: false })).toBe(true);
    expect(backgroundVideoAllowed({ reducedMotion: true, saveData: false })).toBe(false);
    expect(backgroundVideoAllowed({ reducedMotion: false, saveData: true })).toBe(false);
  });
});
