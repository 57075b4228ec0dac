import { describe, expect, it } from 'vitest';
import { AUTOMATIC_RELOAD_GUARD_MS, claimAutomaticReload, isChunkLoadError, type ReloadGuardStorage } from './new-version';

function memoryStorage(): ReloadGuardStorage & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return { values, getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
}

describe('isChunkLoadError', () => {
  it("recognises each browser's failed dynamic import and Vite's failed stylesheet preload", () => {
    // Act
    const recognised = [
      new TypeError('Failed to fetch dynamically imported module: https://fixly.app/assets/contact-page-abc.js'),
      new TypeError('error loading dynamically imported module: https://fixly.app/assets/contact-page-abc.js'),
      new TypeError('Importing a module script failed.'),
      new Error('Unable to preload CSS for /assets/live-map-abc.css'),
    ].map(isChunkLoadError);

    // Assess
    expect(recognised).toEqual([true, true, true, true]);
  });

  it('leaves every other error to the boundaries above (a bug must not pass for a new version)', () => {
    expect([new Error('Cannot read properties of undefined'), new TypeError('Failed to fetch'), null, undefined, 42].map(isChunkLoadError)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('claimAutomaticReload', () => {
  it('lets a tab reload itself once, then not again within the guard time, and again after it', () => {
    // Prepare
    const storage = memoryStorage();
    const start = 1_700_000_000_000;

    // Act
    const first = claimAutomaticReload(storage, start);
    const again = claimAutomaticReload(storage, start + 5_000);
    const justBefore = claimAutomaticReload(storage, start + AUTOMATIC_RELOAD_GUARD_MS - 1);
    const after = claimAutomaticReload(storage, start + AUTOMATIC_RELOAD_GUARD_MS);

    // Assess
    expect([first, again, justBefore, after]).toEqual([true, false, false, true]);
  });

  it('never reloads where the tab cannot remember that it did (no storage, storage refused or not kept)', () => {
    // Prepare
    const refusing: ReloadGuardStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const forgetting: ReloadGuardStorage = { getItem: () => null, setItem: () => undefined };

    // Act / Assess
    expect(claimAutomaticReload(undefined, 1)).toBe(false);
    expect(claimAutomaticReload(refusing, 1)).toBe(false);
    expect(claimAutomaticReload(forgetting, 1)).toBe(false);
  });

  it('reloads once when the remembered time is in the future (a clock set back), then guards from now', () => {
    // Prepare
    const storage = memoryStorage();
    storage.setItem('fixly:new-version-reload', String(2_000_000_000_000));

    // Act / Assess
    expect(claimAutomaticReload(storage, 1_000_000_000_000)).toBe(true);
    expect(claimAutomaticReload(storage, 1_000_000_000_500)).toBe(false);
  });
});
