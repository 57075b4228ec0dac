import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-restart-'));

/** `npm start` as a user runs it: a child process that prints its URL when ready. */
function start(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready at (http:\/\/localhost:\d+)/.exec(output);
      if (match) resolve({ child, url: match[1]! });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`start exited with ${code} before it was ready:\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGINT');
  });
}

describe('npm start', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stops cleanly on Ctrl-C and keeps the bookings made before when started again', async () => {
    // Prepare
    const first = await start();
    const created = await fetch(`${first.url}/api/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ravi', phone: '5550101234', address: '12 Harbour Road', category: 'cleaning' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };

    // Act
    const exitCode = await stop(first.child);
    const second = await start();
    const found = await fetch(`${second.url}/api/bookings/${id}`);
    const page = await fetch(`${second.url}/track?id=${id}`);
    await stop(second.child);

    // Assess
    expect(exitCode).toBe(0);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ id, name: 'Ravi', status: 'new' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });
});
