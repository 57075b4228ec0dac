import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startStackProcess } from '../testing/local-process';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-owner-setup-'));

describe('npm start on a data folder without an owner', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints the setup page and a setup code, the same after a restart, that sets up the owner; then prints none', async () => {
    // Prepare: the first start makes the code
    const first = await startStackProcess(dataDir);
    await first.stop();

    // Act
    const second = await startStackProcess(dataDir);
    const wrong = await fetch(`${second.url}/api/admin/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ setupCode: 'not-the-code', username: 'site.owner', email: 'owner@example.com', password: 'Lantern-Harbor-42', confirm: 'Lantern-Harbor-42' }),
    });
    const right = await fetch(`${second.url}/api/admin/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ setupCode: second.setupCode, username: 'site.owner', email: 'owner@example.com', password: 'Lantern-Harbor-42', confirm: 'Lantern-Harbor-42' }),
    });
    await second.stop();
    const third = await startStackProcess(dataDir);
    await third.stop();

    // Assess
    expect(first.setupCode).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(first.setupUrl).toBe(`${first.url}/admin/setup`);
    expect(second.setupCode).toBe(first.setupCode);
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as { message: string }).message).toMatch(/Find it in the console where npm start runs/);
    expect(right.status).toBe(201);
    expect(third.setupCode).toBeUndefined();
  });
});
