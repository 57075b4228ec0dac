import { describe, expect, it } from 'vitest';
import { installStateOf, phonePlatformOf } from './install-state';

describe('what /download offers', () => {
  it('says the app is installed when the page runs standalone, from the iOS home screen, or was just installed', () => {
    const base = { standalone: false, installedNow: false, promptAvailable: true };

    expect(installStateOf({ ...base, standalone: true })).toBe('installed');
    expect(installStateOf({ ...base, iosStandalone: true })).toBe('installed');
    expect(installStateOf({ ...base, installedNow: true })).toBe('installed');
  });

  it("offers the browser's Install while its prompt is unused, otherwise the manual steps", () => {
    expect(installStateOf({ standalone: false, installedNow: false, promptAvailable: true })).toBe('prompt');
    expect(installStateOf({ standalone: false, iosStandalone: false, installedNow: false, promptAvailable: false })).toBe('manual');
  });
});

describe('which manual steps come first', () => {
  it('recognises iPhones, iPads (also those that say they are a Mac) and Android phones', () => {
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
    const ipadAsMac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
    const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

    expect(phonePlatformOf(iphone)).toBe('ios');
    expect(phonePlatformOf(ipadAsMac, 5)).toBe('ios');
    expect(phonePlatformOf(android)).toBe('android');
  });

  it('treats a desktop Mac or PC as neither', () => {
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
    const linux = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

    expect(phonePlatformOf(mac, 0)).toBe('other');
    expect(phonePlatformOf(linux)).toBe('other');
  });
});
