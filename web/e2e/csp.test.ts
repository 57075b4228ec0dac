import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpApi } from '../../infra/local/http-api';
import { startLocalStack, type LocalStack } from '../../infra/local/stack';
import { pageFileFor, prerenderedPages } from '../src/app/prerendered-pages';
import { launchBrowser } from './browser';
import { OFFLINE_GEOCODER } from './journey';

/**
 * Issue 9: the app works under the strict Content-Security-Policy CloudFront sends. The production
 * build (not Vite's dev server, whose inline preamble and injected styles need dev allowances) is
 * served with the API on one origin, every response carrying shared/security-headers.ts's headers
 * through the local runtime's httpApi({ viteDev: false }); Chromium opens the main pages and
 * reports every CSP violation (the securitypolicyviolation event and the console's "Refused to").
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain',
};

let dist: string;
let dataDir: string;
let stack: LocalStack;
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'csp-dist-'));
  dataDir = mkdtempSync(path.join(tmpdir(), 'csp-data-'));
  const { build } = await import('vite');
  // Vitest sets NODE_ENV=test, which Vite would build React's development bundle with: this is the
  // production build, as deployed.
  const testEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(root, 'web/vite.config.ts'), logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = testEnv;
  }
  Object.assign(process.env, OFFLINE_GEOCODER);
  // The API's functions run in this process, with the stack's data (web off: the build is served here).
  stack = await startLocalStack({ port: 0, dataDir, web: false });
  const api = httpApi({ viteDev: false });
  server = createServer((req, res) => {
    void api(req, res, () => {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const file = path.join(dist, path.normalize(pathname));
      // As CloudFront: a file as it is, else the route's prerendered page or the app shell.
      const found =
        pathname !== '/' && file.startsWith(dist) && existsSync(file) && statSync(file).isFile() ? file : path.join(dist, pageFileFor(pathname));
      res.setHeader('content-type', types[path.extname(found)] ?? 'application/octet-stream');
      res.end(readFileSync(found));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await stack?.stop();
  rmSync(dist, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const pages = ['/', '/services', '/book', '/track', '/workers', '/client-dashboard', '/apply/worker', '/apply/company', '/worker/login', '/worker/signup', '/admin/setup', '/admin/login', '/contact'];

describe('the production build under the strict Content-Security-Policy', () => {
  it('is served with the strict policy: no inline scripts or styles allowed', async () => {
    const res = await fetch(`${origin}/`);

    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it.each(pages)('shows %s with no CSP violation', async (url) => {
    // Prepare
    const { page, violations, close } = await watchedPage();

    // Act
    await page.goto(`${origin}${url}`);
    await page.locator('h1').first().waitFor();
    await page.waitForLoadState('networkidle');

    // Assess
    expect(violations).toEqual([]);
    await close();
  });

  it('would report a violation: an inline script added to a page is refused and seen', async () => {
    // Prepare
    const { page, violations, close } = await watchedPage();
    await page.goto(`${origin}/`);
    await page.locator('h1').first().waitFor();

    // Act
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__ran = true';
      document.body.append(script);
    });
    await expect.poll(() => violations.length).toBeGreaterThan(0);

    // Assess
    expect(await page.evaluate(() => (window as unknown as { __ran?: boolean }).__ran)).toBeUndefined();
    expect(violations.join('\n')).toMatch(/script-src/);
    await close();
  });
});

describe('the prerendered pages', () => {
  it.each(Object.keys(prerenderedPages))('%s has its first screen in the HTML and no script in it', async (url) => {
    const html = await (await fetch(`${origin}${url}`)).text();

    expect(html).toMatch(new RegExp(`<div id="root" data-prerendered="${url}"><div`));
    expect(html).toContain('<h1');
    // Only the entry module: React's inline reveal scripts would be refused by the CSP.
    expect(html.match(/<script\b/g)).toHaveLength(1);
  });

  it.each(Object.keys(prerenderedPages))('%s hydrates where it stands: no error, nothing replaced, then interactive', async (url) => {
    // Prepare
    const { page, violations, close } = await watchedPage();
    const errors = collectErrors(page);
    await page.setViewportSize({ width: 390, height: 844 });

    // Act: the heading painted from the HTML is still the same node once the app has hydrated.
    await page.goto(`${origin}${url}`);
    await page.locator('h1').first().evaluate((h1) => ((window as unknown as { __h1: Element }).__h1 = h1));
    await page.waitForLoadState('networkidle');
    const menu = page.getByRole('button', { name: 'Open menu' });
    await menu.click();

    // Assess
    await page.getByRole('button', { name: 'Close menu' }).waitFor();
    expect(await page.locator('h1').first().evaluate((h1) => h1 === (window as unknown as { __h1: Element }).__h1)).toBe(true);
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
    await close();
  });

  it('hydrates /track with a booking id too (the booking comes once hydrated), and renders /book?category= afresh', async () => {
    // Prepare
    const { page, close } = await watchedPage();
    const errors = collectErrors(page);
    await page.goto(`${origin}/track`);
    await page.waitForLoadState('networkidle');

    // Act
    await page.getByLabel('Enter Booking ID').fill('no-such-booking');
    await page.getByRole('button', { name: 'Check Status' }).click();
    await page.waitForURL(/\/track\?id=no-such-booking$/);
    await page.reload();
    await page.locator('h1').first().evaluate((h1) => ((window as unknown as { __h1: Element }).__h1 = h1));

    // Assess
    await page.getByRole('button', { name: 'Check Status' }).waitFor({ state: 'detached' });
    await page.getByRole('alert').first().waitFor();
    expect(await page.locator('h1').first().evaluate((h1) => h1 === (window as unknown as { __h1: Element }).__h1)).toBe(true);
    await page.goto(`${origin}/book?category=plumbing`);
    await expect.poll(() => page.getByLabel('Service category').inputValue()).toBe('plumbing');
    // The unknown booking's 404 is the one console error expected.
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
    await close();
  });

  it('/track?id= asks for its booking once, before React starts, and shows that answer', async () => {
    // Prepare: a real booking, and every call the page makes for it.
    const made = await fetch(`${origin}/api/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Dana Whitfield', phone: '(415) 555-0142', address: '742 Evergreen Terrace, Springfield', category: 'plumbing', details: 'Kitchen sink drains slowly.' }),
    });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const { page, close } = await watchedPage();
    const errors = collectErrors(page);
    const calls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/bookings/')) calls.push(request.url());
    });

    // Act
    await page.goto(`${origin}/track?id=${id}`);
    await page.getByRole('heading', { name: 'Progress' }).waitFor();

    // Assess: one call, made by the entry script before React (a fetch, not the page's later one).
    const initiators = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.startsWith('/api/bookings/'))
        .map((entry) => (entry as PerformanceResourceTiming).initiatorType),
    );
    expect(calls).toEqual([`${origin}/api/bookings/${id}`]);
    expect(initiators).toEqual(['fetch']);
    expect(errors).toEqual([]);
    await close();
  });
});

/** Uncaught errors and console errors (a hydration mismatch is reported as one of them). */
function collectErrors(page: import('playwright-core').Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

/** A page whose CSP violations are collected: the DOM event and the console's report. */
async function watchedPage() {
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportViolation: (v: string) => void }).reportViolation(`${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return { page, violations, close: () => context.close() };
}
