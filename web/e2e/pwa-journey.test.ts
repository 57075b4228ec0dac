import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { HOME, NEAR, OFFLINE_GEOCODER, collectErrors, eventually, requestFromPage } from './journey';
import { approvedPro, asPro, ownerCookie, signIn, type Pro } from './people';

/**
 * The installable app and the pages that sell it: the manifest and icons are served and valid,
 * /download explains installing, /insurance and /workers take requests with the shared form, and a
 * pro's dashboard opened again without a network shows the jobs it last loaded under an offline banner.
 */

/** Console errors of the page; `allow` names the ones a step expects. */
function consoleErrors(page: Page): { list: string[]; allow: (pattern: RegExp | null) => void } {
  const list: string[] = [];
  let allowed: RegExp | null = null;
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = `${message.text()} (${message.location().url})`;
    if (allowed && allowed.test(text)) return;
    list.push(text);
  });
  return { list, allow: (pattern) => void (allowed = pattern) };
}

describe('the installable app, its pages, and the worker dashboard offline', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-pwa-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  let pro: Pro;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStackProcess(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    pro = await approvedPro(stack.url, await ownerCookie(stack), 'Riley Moreno', ['plumbing']);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves a valid manifest with its icons, linked from every page with a favicon', async () => {
    // The manifest.
    const res = await fetch(`${stack.url}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ short_name: 'Fixly', start_url: '/', display: 'standalone', theme_color: '#020617', background_color: '#020617' });
    expect(manifest.name).toMatch(/^Fixly/);
    const sizes = (purpose: string) => manifest.icons.filter((icon) => (icon.purpose ?? 'any').split(' ').includes(purpose)).map((icon) => icon.sizes);
    expect(sizes('any')).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(sizes('maskable')).toEqual(['512x512']);

    // Every icon is a PNG of the size it claims.
    for (const icon of manifest.icons) {
      const image = Buffer.from(await (await fetch(`${stack.url}${icon.src}`)).arrayBuffer());
      expect(image.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(`${image.readUInt32BE(16)}x${image.readUInt32BE(20)}`).toBe(icon.sizes);
    }

    // The page links them; the favicon the browser asks for by itself exists.
    const page = await browser.newPage();
    const errors = consoleErrors(page);
    await page.goto(`${stack.url}/`);
    await page.getByRole('heading', { name: 'Book trusted pros in seconds.' }).waitFor();
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.webmanifest');
    for (const href of await page.locator('link[rel="icon"], link[rel="apple-touch-icon"]').evaluateAll((links) => links.map((l) => l.getAttribute('href')!))) {
      expect((await fetch(`${stack.url}${href}`)).status).toBe(200);
    }
    expect((await fetch(`${stack.url}/favicon.ico`)).status).toBe(200);
    expect(errors.list).toEqual([]);
    await page.close();
  });

  it('explains installing on /download: the manual steps, the store apps to come, and an installed app', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const pageErrors = collectErrors(page);

    await page.goto(`${stack.url}/download`);
    await page.getByRole('heading', { name: 'Install the App', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'iPhone and iPad (Safari)' }).waitFor();
    await page.getByRole('heading', { name: 'Android (Chrome)' }).waitFor();
    await page.getByText('Add to Home Screen', { exact: true }).waitFor();
    await page.getByText('Install app', { exact: true }).waitFor();
    expect(await page.getByText('Coming soon', { exact: true }).count()).toBe(2);
    // Headless Chromium makes no install offer, so the page says how to install by hand.
    await page.getByText('Add Fixly to your home screen').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The same page inside the installed app. Headless Chromium opens no app window and cannot
    // emulate display-mode, so the page is told `(display-mode: standalone)` matches, as it does there.
    await context.addInitScript(() => {
      const original = window.matchMedia.bind(window);
      window.matchMedia = (query: string) => {
        if (!query.includes('display-mode: standalone')) return original(query);
        const none = () => undefined;
        return { matches: true, media: query, onchange: null, addEventListener: none, removeEventListener: none, addListener: none, removeListener: none, dispatchEvent: () => false };
      };
    });
    await page.reload();
    await page.getByText('Fixly is installed on this device').waitFor();
    await page.getByText('You are using the installed app.').waitFor();
    expect(await page.getByRole('button', { name: 'Install' }).count()).toBe(0);

    expect(errors.list).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('shows the home page in full: a saved service location starts the request form, featured services lead to their pages', async () => {
    const page = await browser.newPage();
    const errors = consoleErrors(page);
    const pageErrors = collectErrors(page);

    await page.goto(`${stack.url}/`);
    for (const title of ['What do you need?', 'Service location', 'Your Requests', 'Featured Services', 'How It Works']) {
      await page.getByRole('heading', { name: title, exact: true }).waitFor();
    }
    for (const [index, step] of ['Submit a request', 'Get matched', 'Get it done'].entries()) {
      await page.getByRole('heading', { name: `Step ${index + 1}: ${step}` }).waitFor();
    }
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The location is saved in this browser and fills the form of the service chosen next.
    await page.getByLabel('Service address').fill('500 Hayes Street, San Francisco');
    await page.getByRole('button', { name: 'Save location' }).click();
    await page.getByText('500 Hayes Street, San Francisco', { exact: true }).waitFor();
    await page.reload();
    await page.getByText('500 Hayes Street, San Francisco', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Plumbing', exact: true }).click();
    expect(await page.getByLabel('Location').inputValue()).toBe('500 Hayes Street, San Francisco');
    expect(await page.getByLabel('Service', { exact: true }).inputValue()).toBe('Plumbing');
    await page.getByRole('button', { name: 'Back' }).click();

    // Featured services: insurance repairs, and contract workers through /contractors.
    await page.getByRole('link', { name: /^Insurance repairs/ }).click();
    await page.waitForURL(`${stack.url}/insurance`);
    await page.goBack();
    await page.getByRole('link', { name: /^Contract workers/ }).click();
    await page.waitForURL(`${stack.url}/workers`);
    await page.getByRole('heading', { level: 1, name: 'Skilled tradespeople for projects big and small' }).waitFor();

    expect(errors.list).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('takes an insurance repair request on /insurance and shows the contract-worker page on /workers, each with the shared form', async () => {
    const page = await browser.newPage();
    const errors = consoleErrors(page);
    const pageErrors = collectErrors(page);

    await page.goto(`${stack.url}/insurance`);
    await page.getByRole('heading', { level: 1, name: /paperwork for your claim/ }).waitFor();
    for (const service of ['Storm damage', 'Water damage', 'Fire damage', 'Property damage']) await page.getByRole('heading', { name: service }).waitFor();
    const steps = ['Submit', 'Inspection', 'Documentation', 'Resolution'];
    for (const [index, step] of steps.entries()) await page.getByRole('heading', { name: `Step ${index + 1}: ${step}` }).waitFor();
    expect(await page.getByLabel('Service').inputValue()).toBe('Insurance Claims');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The request goes out like the home page's and the banner says where to follow it.
    await page.getByLabel('Name').fill('Avery Quinn');
    await page.getByLabel('Email').fill('avery@example.com');
    await page.getByLabel('Phone number').fill('(415) 555-0199');
    await page.getByLabel('Location').fill('1 Dr Carlton B Goodlett Pl, San Francisco');
    await page.getByLabel('Description').fill('Water came through the ceiling after the storm last night.');
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await page.getByText(/^Request submitted!/).waitFor();
    const mine = (await (await page.request.get(`${stack.url}/api/requests`)).json()) as { service: string; name: string }[];
    expect(mine.map((r) => [r.service, r.name])).toEqual([['Insurance Claims', 'Avery Quinn']]);

    // /contractors is the home page's link; it opens /workers.
    await page.goto(`${stack.url}/contractors`);
    await page.waitForURL(`${stack.url}/workers`);
    await page.getByRole('heading', { level: 1, name: 'Skilled tradespeople for projects big and small' }).waitFor();
    for (const service of ['Kitchen remodels', 'Bathroom remodels', 'Additions', 'Repairs']) await page.getByRole('heading', { name: service }).waitFor();
    expect(await page.getByRole('heading', { name: 'Our specialties' }).count()).toBe(1);
    expect(await page.locator('section[aria-labelledby="specialties-title"] h3').count()).toBe(6);
    expect(await page.getByLabel('Service').inputValue()).toBe('Contract Workers');
    expect(await seriousA11yViolations(page)).toEqual([]);

    expect(errors.list).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("opens a pro's dashboard again without a network: the last loaded job, read-only, under an offline banner", async () => {
    // Prepare: the pro on call nearby holds a customer's job.
    await asPro(stack.url, pro, 'POST', '/api/workers/clock-in');
    await asPro(stack.url, pro, 'POST', '/api/workers/availability', { isAvailable: true });
    await asPro(stack.url, pro, 'POST', '/api/workers/location', NEAR);
    const customer = await browser.newContext({ geolocation: HOME, permissions: ['geolocation'] });
    const customerPage = await customer.newPage();
    await customerPage.goto(`${stack.url}/`);
    await requestFromPage(customerPage, {
      name: 'Jamie Castillo',
      email: 'jamie@example.com',
      phoneNumber: '(415) 555-0166',
      service: 'Plumbing',
      description: 'The bathroom sink drains very slowly.',
    });
    const offers = await eventually(
      () => asPro(stack.url, pro, 'GET', `/api/jobs/offers/${pro.id}`) as Promise<{ id: string }[]>,
      (list) => list.length === 1,
    );
    await asPro(stack.url, pro, 'POST', `/api/jobs/accept/${offers[0]!.id}`, { workerId: pro.id });
    await customer.close();

    // One online visit, until the service worker controls the page and keeps what it loaded.
    const context = await browser.newContext({ geolocation: NEAR, permissions: ['geolocation'] });
    await signIn(context, stack.url, pro);
    const page = await context.newPage();
    const errors = consoleErrors(page);
    const pageErrors = collectErrors(page);
    await page.goto(`${stack.url}/worker/dashboard`);
    await page.getByRole('tab', { name: 'Jobs' }).click();
    const held = page.getByRole('list', { name: 'Today’s jobs' });
    await held.getByText('Jamie Castillo').waitFor();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    // What the page hands the worker by itself on its first visit, again, waiting for the reply.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          const urls = [location.href, ...performance.getEntriesByType('resource').map((entry) => entry.name)];
          navigator.serviceWorker.controller!.postMessage({ type: 'cache-urls', urls }, [channel.port2]);
        }),
    );
    expect(await page.getByTestId('offline-banner').count()).toBe(0);

    // Act: the network goes, and the app is opened again.
    // The browser logs every request it cannot send while offline (the live socket, the dev server's).
    errors.allow(/ERR_INTERNET_DISCONNECTED|WebSocket connection to .* failed|\[vite\]/);
    await context.setOffline(true);
    await page.reload();

    // Assess: the banner, the job as last loaded, and nothing that needs the server can be pressed.
    const banner = page.getByTestId('offline-banner');
    await banner.getByText('You are offline').waitFor();
    await banner.getByText(/^Showing your jobs as last loaded at .+, read-only\./).waitFor();
    await page.getByRole('tab', { name: 'Jobs' }).click();
    await held.getByText('Jamie Castillo').waitFor();
    await held.getByText('Accepted').waitFor();
    expect(await page.getByText('Failed to fetch active jobs').count()).toBe(0);
    await page.getByRole('tab', { name: 'Overview' }).click();
    expect(await page.getByRole('button', { name: 'Clock Out' }).isDisabled()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Available for jobs' }).isDisabled()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Back online, the banner goes and the buttons work again.
    await context.setOffline(false);
    await banner.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Clock Out' }).isDisabled()).toBe(false);

    expect(errors.list).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
