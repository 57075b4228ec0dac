import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installPackagedChromium, packagedChromium, resolveChromium, type Chromium } from './chromium';

const scratch = mkdtempSync(path.join(tmpdir(), 'chromium-choice-'));
const systemBinary = path.join(scratch, 'system-chromium');
const configuredBinary = path.join(scratch, 'configured-chromium');
writeFileSync(systemBinary, '');
writeFileSync(configuredBinary, '');
const noSystemBinary = path.join(scratch, 'absent');
const packaged = async (): Promise<Chromium> => ({ executablePath: '/packaged/chromium', env: {}, source: 'packaged' });

describe('which Chromium the browser tests launch', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('takes CHROMIUM_PATH first, even with a system Chromium installed', async () => {
    // Prepare
    const env = { CHROMIUM_PATH: configuredBinary };

    // Act
    const chosen = await resolveChromium({ env, systemPath: systemBinary, packaged });

    // Assess
    expect(chosen).toEqual({ executablePath: configuredBinary, env: {}, source: 'CHROMIUM_PATH' });
  });

  it('says so when CHROMIUM_PATH names no file, rather than falling back quietly', async () => {
    // Prepare
    const env = { CHROMIUM_PATH: path.join(scratch, 'typo') };

    // Act
    const chosen = resolveChromium({ env, systemPath: systemBinary, packaged });

    // Assess
    await expect(chosen).rejects.toThrow(/CHROMIUM_PATH is .*typo, and there is no file there/);
  });

  it("takes the system's Chromium when CHROMIUM_PATH is unset", async () => {
    // Act
    const chosen = await resolveChromium({ env: {}, systemPath: systemBinary, packaged });

    // Assess
    expect(chosen).toEqual({ executablePath: systemBinary, env: {}, source: 'system' });
  });

  it('falls back to the packaged Chromium without a system one', async () => {
    // Act
    const chosen = await resolveChromium({ env: {}, systemPath: noSystemBinary, packaged });

    // Assess
    expect(chosen.source).toBe('packaged');
  });

  it('inflates the packaged Chromium into a binary that starts on this machine', async () => {
    // Act
    const chosen = await resolveChromium({ env: {}, systemPath: noSystemBinary });
    const version = execFileSync(chosen.executablePath, ['--headless', '--no-sandbox', '--version'], {
      encoding: 'utf8',
      env: { ...process.env, ...chosen.env },
    });

    // Assess
    expect(chosen.source).toBe('packaged');
    expect(version).toMatch(/Chrom(e|ium).* \d+\./);
  });

  it('leaves one whole binary and no half-written copy when two inflations run at once', async () => {
    // Prepare
    const installDir = path.join(scratch, 'packaged');

    // Act
    const [first, second] = await Promise.all([installPackagedChromium(installDir), installPackagedChromium(installDir)]);
    const again = await packagedChromium(installDir);

    // Assess
    expect(first).toBe(installDir);
    expect(second).toBe(installDir);
    expect(statSync(path.join(installDir, 'chromium')).size).toBeGreaterThan(100_000_000);
    expect(existsSync(path.join(installDir, 'libGLESv2.so'))).toBe(true);
    expect(again.executablePath).toBe(path.join(installDir, 'chromium'));
    expect(readdirSync(scratch).filter((name) => name.includes('.partial-'))).toEqual([]);
  });
});
