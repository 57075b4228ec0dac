import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { holdScripts, trackedIdIn } from './journey';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-e2e-'));
let stack: RunningStack;
let browser: Browser;


describe('a visitor books a service and tracks it', () => {
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStackProcess(dataDir), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes from the landing page to a category, books it after one invalid attempt, and sees it as new on /track', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    // The landing page and its way into the catalogue.
    await page.goto(stack.url);
    await page.getByRole('heading', { name: 'Book trusted pros in seconds.' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'See Services' }).click();
    await page.getByRole('heading', { name: 'Our Categories' }).waitFor();
    await page.getByRole('link', { name: /view details/i }).first().waitFor();

    // A category's detail page, then its booking form with the category pre-selected.
    await page.locator('a[href="/services/plumbing"]').first().click();
    await page.getByRole('heading', { name: "What's Included" }).waitFor();
    await page.getByRole('link', { name: 'Book this service' }).click();
    await page.waitForURL(/\/book\?category=plumbing$/);
    await page.getByRole('heading', { name: 'Book a Service' }).waitFor();
    const category = page.getByLabel(/category/i);
    await expect.poll(() => category.inputValue()).toBe('plumbing');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // One invalid attempt: every message shows and nothing is sent.
    await page.getByLabel(/name/i).fill('');
    await page.getByLabel(/phone/i).fill('555');
    await page.getByLabel(/address/i).fill('Elm');
    await page.getByRole('button', { name: /book|submit|request/i }).click();
    await page.getByText('Name is required').waitFor();
    await page.getByText('Valid phone number required').waitFor();
    await page.getByText('Complete address required').waitFor();
    expect(page.url()).toMatch(/\/book\?category=plumbing$/);

    // A valid attempt is booked, but its answer is lost on the way back: the page says it failed.
    await page.getByLabel(/name/i).fill('Dana Whitfield');
    await page.getByLabel(/phone/i).fill('(415) 555-0142');
    await page.getByLabel(/address/i).fill('742 Evergreen Terrace, Springfield');
    await page.getByLabel(/details/i).fill('Kitchen sink drains slowly.');
    let bookedUnseen: string | undefined;
    let answered = '';
    await page.route(
      '**/api/bookings',
      async (route) => {
        const answer = await route.fetch();
        answered = `${answer.status()} ${await answer.text()}`;
        bookedUnseen = (JSON.parse(answered.slice(4)) as { id?: string }).id;
        await route.abort('connectionreset');
      },
      { times: 1 },
    );
    await page.getByRole('button', { name: /book|submit|request/i }).click();
    await page.getByText('Booking failed').waitFor();
    // The server's own answer, which the page never saw, named if it was not the booking.
    const warnings = () => stack.output().split('\n').filter((line) => line.includes('"level":"warn"') || line.includes('"level":"error"')).slice(-10).join('\n');
    expect(bookedUnseen, `POST /api/bookings answered ${answered}; the stack logged:\n${warnings()}`).toMatch(/^[A-Za-z0-9_-]{22}$/);

    // Pressing again lands on /track with that same booking: the second press was not a second booking.
    await page.getByRole('button', { name: /book|submit|request/i }).click();
    await page.waitForURL(/\/track#id=[A-Za-z0-9_-]{22}$/);
    const id = trackedIdIn(page.url());
    expect(id).toBe(bookedUnseen);
    await page.getByText('Request sent!').waitFor();
    const badge = page.getByTestId('booking-status');
    await badge.waitFor();
    expect(await badge.getAttribute('data-status')).toBe('new');
    await page.getByText(id.slice(-8)).first().waitFor();
    await page.getByText('Request Received').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("on a slow phone, keeps what was entered into /book before the app arrived and books it with the link's category", async () => {
    // Prepare: a category's link opened while the page's scripts are held back, as on a slow connection.
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const releaseScripts = await holdScripts(page);
    await page.goto(`${stack.url}/book?category=electrical`, { waitUntil: 'commit' });
    await page.getByRole('heading', { name: 'Book a Service' }).waitFor();

    // Act: the person types, picks a size and a later time, and presses Submit before the app runs; then the scripts arrive.
    await page.getByLabel('Name', { exact: true }).fill('Robin Ortiz');
    await page.getByLabel('Phone', { exact: true }).fill('(415) 555-0163');
    await page.getByLabel('Address', { exact: true }).fill('88 Valencia Street, San Francisco');
    await page.getByLabel('Job size').selectOption('large');
    await page.getByLabel('Choose a date and time').check();
    const submit = page.getByRole('button', { name: 'Submit booking' });
    const heldBack = await submit.isDisabled();
    await submit.click({ force: true });
    const urlAfterEarlyPress = page.url();
    releaseScripts();
    // The app takes over once its held-back scripts arrive: on a busy machine that is seconds, not one.
    await expect.poll(() => page.getByLabel('Service category').inputValue(), { timeout: 20_000 }).toBe('electrical');
    const tomorrowTen = await page.evaluate(() => {
      const at = new Date(Date.now() + 86_400_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T10:00`;
    });
    await page.getByLabel('Date and time', { exact: true }).fill(tomorrowTen);
    expect(await page.getByLabel('Job size').inputValue()).toBe('large');
    await submit.click();

    // Assess: the early press sent nothing (the bare HTML form would have put the typed details in
    // the address); the booking carries what was entered and the link's category.
    expect(heldBack).toBe(true);
    expect(urlAfterEarlyPress).toBe(`${stack.url}/book?category=electrical`);
    await page.waitForURL(/\/track#id=[A-Za-z0-9_-]{22}$/);
    const id = trackedIdIn(page.url());
    const booking = (await page.evaluate(async (bookingId) => (await fetch(`/api/track/${bookingId}`)).json(), id)) as Record<string, unknown>;
    expect(booking).toMatchObject({ category: 'electrical', name: 'Robin Ortiz', location: '88 Valencia Street, San Francisco' });
    expect(booking.requestedTime).toEqual(expect.any(String));
    expect(errors).toEqual([]);
  });

  it('says "Booking Not Found" for an unknown id and offers to try again', async () => {
    const page = await browser.newPage();

    await page.goto(`${stack.url}/track#id=AAAAAAAAAAAAAAAAAAAAAA`);
    await page.getByText('Booking Not Found').waitFor();
    await page.getByRole('button', { name: 'Try Again' }).click();
    await page.waitForURL(/\/track$/);

    const check = page.getByRole('button', { name: 'Check Status' });
    expect(await check.isDisabled()).toBe(true);
    await page.getByLabel('Enter Booking ID').fill('   ');
    expect(await check.isDisabled()).toBe(true);
  });

  it('shows the not-found screen for an unknown path and follows the app\'s redirects', async () => {
    const page = await browser.newPage();

    await page.goto(`${stack.url}/no-such-page`);
    await page.getByText('404 Page Not Found').waitFor();
    await page.goto(`${stack.url}/apply/contractor`);
    await page.waitForURL(/\/apply\/worker$/);
    await page.goto(`${stack.url}/login`);
    await page.waitForURL(/\/admin\/login$/);
  });
});
