import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startStackProcess } from '../testing/local-process';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-restart-'));
const devDataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-dev-'));

/** The first start on a machine (or after a source changed) builds the site first, which takes a while on two cores. */
const FIRST_START_MAY_BUILD_MS = 300_000;

describe('npm start', () => {
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(devDataDir, { recursive: true, force: true });
  });

  it(
    'serves the production build under the strict CSP, stops cleanly on Ctrl-C and, started again, keeps the bookings and builds nothing',
    async () => {
      // Prepare
      const first = await startStackProcess(dataDir);
      const created = await fetch(`${first.url}/api/bookings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ravi', phone: '5550101234', address: '12 Harbour Road', category: 'cleaning' }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      // The browser that booked: its cookie reads the booking whole.
      const cookie = created.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

      // Act
      const exitCode = await first.stop();
      const second = await startStackProcess(dataDir);
      const found = await fetch(`${second.url}/api/bookings/${id}`, { headers: { cookie } });
      const page = await fetch(`${second.url}/track`);
      await second.stop();

      // Assess
      expect(exitCode, first.output()).toBe(0);
      expect(found.status).toBe(200);
      expect(await found.json()).toMatchObject({ id, name: 'Ravi', status: 'new' });
      expect(page.status).toBe(200);
      const html = await page.text();
      // The page prerendered at build time, as CloudFront serves it; Vite's dev server has none.
      expect(html).toContain('<div id="root" data-prerendered="/track">');
      expect(html).not.toContain('/@vite/client');
      expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/);
      expect(second.output()).toContain('web from the production build');
      expect(second.output()).not.toContain('Building the site');
    },
    FIRST_START_MAY_BUILD_MS,
  );

  it('serves web/ through Vite with hot reload as npm run dev', async () => {
    // Act
    const stack = await startStackProcess(devDataDir, {}, ['--dev']);
    const page = await fetch(`${stack.url}/`);
    const html = await page.text();
    await stack.stop();

    // Assess
    expect(page.status).toBe(200);
    expect(html).toContain('/@vite/client');
    expect(stack.output()).toContain("web from Vite's dev server, with hot reload");
    expect(stack.output()).not.toContain('Building the site');
  });
});
