import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../infra/local/stack';
import { prerenderedPages } from '../src/app/prerendered-pages';
import { launchBrowser } from './browser';
import { OFFLINE_GEOCODER } from './journey';

/**
 * The app works under the strict Content-Security-Policy CloudFront sends. The production build
 * (not Vite's dev server, whose inline preamble and injected styles need dev allowances) is served
 * with the API on one origin, every response carrying shared/security-headers.ts's headers through
 * the local runtime's httpApi({ viteDev: false }); Chromium opens the main pages and reports every
 * CSP violation (the securitypolicyviolation event and the console's "Refused to").
 */
let dataDir: string;
let stack: LocalStack;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'csp-data-'));
  Object.assign(process.env, OFFLINE_GEOCODER);
  // The API's functions run in this process, with the stack's data; the production build of this
  // run (web/e2e/global-setup.ts) is served on the same origin as CloudFront serves it.
  stack = await startLocalStack({ port: 0, dataDir, web: { dist: inject('webDist') } });
  origin = stack.url;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
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

  it('hydrates /track with a booking id and /book with a category too (each comes once hydrated)', async () => {
    // Prepare
    const { page, close } = await watchedPage();
    const errors = collectErrors(page);
    await page.goto(`${origin}/track`);
    await page.waitForLoadState('networkidle');

    // Act
    await page.getByLabel('Enter Booking ID').fill('no-such-booking');
    await page.getByRole('button', { name: 'Check Status' }).click();
    await page.waitForURL(/\/track#id=no-such-booking$/);
    await page.reload();
    await page.locator('h1').first().evaluate((h1) => ((window as unknown as { __h1: Element }).__h1 = h1));

    // Assess
    await page.getByRole('button', { name: 'Check Status' }).waitFor({ state: 'detached' });
    await page.getByRole('alert').first().waitFor();
    expect(await page.locator('h1').first().evaluate((h1) => h1 === (window as unknown as { __h1: Element }).__h1)).toBe(true);
    await page.goto(`${origin}/book?category=plumbing`);
    await page.locator('h1').first().evaluate((h1) => ((window as unknown as { __h1: Element }).__h1 = h1));
    await expect.poll(() => page.getByLabel('Service category').inputValue()).toBe('plumbing');
    expect(await page.locator('h1').first().evaluate((h1) => h1 === (window as unknown as { __h1: Element }).__h1)).toBe(true);
    // The unknown booking's 404 is the one console error expected.
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
    await close();
  });

  it('/track#id= asks for its booking once, before React starts, and shows that answer', async () => {
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
      if (new URL(request.url()).pathname.startsWith('/api/track/')) calls.push(request.url());
    });

    // Act
    await page.goto(`${origin}/track#id=${id}`);
    await page.getByRole('heading', { name: 'Progress' }).waitFor();

    // Assess: one call, made by the entry script before React (a fetch, not the page's later one).
    const initiators = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.startsWith('/api/track/'))
        .map((entry) => (entry as PerformanceResourceTiming).initiatorType),
    );
    expect(calls).toEqual([`${origin}/api/track/${id}`]);
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
