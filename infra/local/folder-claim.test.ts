import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimFolder, FolderInUseError } from './folder-claim';

const root = mkdtempSync(path.join(tmpdir(), 'marketplace-claim-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('claiming a data folder for one running stack', () => {
  it('claims a free folder and frees it on release', () => {
    // Prepare
    const folder = path.join(root, 'free');

    // Act
    const release = claimFolder(folder);
    const held = readFileSync(`${folder}.pid`, 'utf8');
    release();

    // Assess
    expect(held).toBe(String(process.pid));
    expect(existsSync(`${folder}.pid`)).toBe(false);
  });

  it('refuses a folder a live process holds, naming that process', () => {
    // Prepare: held by the process that started this test run, which is alive
    const folder = path.join(root, 'held');
    writeFileSync(`${folder}.pid`, String(process.ppid));

    // Act
    const claim = () => claimFolder(folder);

    // Assess
    expect(claim).toThrow(FolderInUseError);
    expect(claim).toThrow(String(process.ppid));
  });

  it('takes over a claim whose process is gone (a stack that was killed)', () => {
    // Prepare: the pid of a process that has exited
    const folder = path.join(root, 'stale');
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(`${folder}.pid`, String(gone));

    // Act
    const release = claimFolder(folder);

    // Assess
    expect(readFileSync(`${folder}.pid`, 'utf8')).toBe(String(process.pid));
    release();
  });
});
