import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../infra/testing/local-process';
import { IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL } from '../../infra/site-cache';
import { launchBrowser, seriousA11yViolations } from './browser';
import { OFFLINE_GEOCODER, collectErrors, eventually, startJourneyStack } from './journey';

/**
 * A release goes out while a tab is open: the tab's next screen is a lazy chunk the new release no
 * longer has. The person gets one automatic reload, and when the chunk is still missing (here: it
 * always is, until the test lets it through) the page "A new version of Fixly is available" with a
 * Reload button, never a blank screen or a loop of reloads; Reload then brings the screen.
 */
describe('a lazy chunk gone after a release', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-new-version-e2e-'));
  let stack: RunningStack;
  let browser: Browser;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startJourneyStack(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the build as the cloud does: HTML revalidated, hashed assets immutable, a missing chunk a 404', async () => {
    // Act
    const home = await fetch(`${stack.url}/`);
    const html = await home.text();
    const entry = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const script = await fetch(`${stack.url}${entry}`);
    const gone = await fetch(`${stack.url}/assets/contact-page-GONE1234.js`);

    // Assess
    expect(home.headers.get('cache-control')).toBe(REVALIDATE_CACHE_CONTROL);
    expect(entry).toBeDefined();
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(gone.status).toBe(404);
    expect(await gone.text()).not.toContain('<html');
  });

  it('reloads once, then shows "A new version of Fixly is available", and Reload brings the screen once the chunk is there', async () => {
    // Prepare: a tab on the home page; the service worker is kept out so the test's routing sees every request
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page: Page = await context.newPage();
    const errors = collectErrors(page);
    let documentLoads = 0;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documentLoads += 1;
    });
    await page.goto(`${stack.url}/`);
    await page.getByRole('heading', { name: 'Book trusted pros in seconds.' }).waitFor();
    // The release: the contact screen's chunk of the build this tab loaded is gone from the server.
    const chunkGone = (route: import('playwright-core').Route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
    await page.route('**/assets/contact-page-*.js', chunkGone);

    // Act: the person opens another screen
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact Us' }).click();

    // Assess: one automatic reload, then the page, and no further reload
    const heading = page.getByRole('heading', { name: 'A new version of Fixly is available' });
    await heading.waitFor({ timeout: 20_000 });
    expect(await eventually(async () => documentLoads, (n) => n >= 2)).toBe(2);
    expect(new URL(page.url()).pathname).toBe('/contact');
    await page.waitForTimeout(2_000);
    expect(documentLoads).toBe(2);
    expect(await heading.isVisible()).toBe(true);
    await expect(page.title()).resolves.toBe('New version available · Fixly');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Act: the new release is complete; the person presses Reload
    await page.unroute('**/assets/contact-page-*.js', chunkGone);
    await page.getByRole('button', { name: 'Reload' }).click();

    // Assess: the screen they asked for
    await page.getByRole('heading', { name: 'Contact Us', level: 1 }).waitFor({ timeout: 20_000 });
    expect(documentLoads).toBe(3);
    expect(await page.getByRole('heading', { name: 'A new version of Fixly is available' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
