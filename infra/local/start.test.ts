import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startStackProcess } from '../testing/local-process';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-restart-'));

describe('npm start', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stops cleanly on Ctrl-C and keeps the bookings made before when started again', async () => {
    // Prepare
    const first = await startStackProcess(dataDir);
    const created = await fetch(`${first.url}/api/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ravi', phone: '5550101234', address: '12 Harbour Road', category: 'cleaning' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    // Act
    const exitCode = await first.stop();
    const second = await startStackProcess(dataDir);
    const found = await fetch(`${second.url}/api/bookings/${id}`);
    const page = await fetch(`${second.url}/track?id=${id}`);
    await second.stop();

    // Assess
    expect(exitCode).toBe(0);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ id, name: 'Ravi', status: 'new' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });
});
