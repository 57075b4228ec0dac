import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { NEAR, OFFLINE_GEOCODER, collectErrors, startJourneyStack } from './journey';
import { approvedPro, bringOnCall, ownerCookie } from './people';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-e2e-'));
let stack: RunningStack;
let browser: Browser;

describe('a customer sees the price and picks the time before booking', () => {
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startJourneyStack(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    const pro = await approvedPro(stack.url, await ownerCookie(stack), 'Sam Okafor', ['plumbing']);
    await bringOnCall(stack.url, pro, NEAR);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('picks a trade, a size and tomorrow morning, sees the breakdown, sends, and finds the same figures and time on the tracking page', async () => {
    // A customer in their own time zone, not the server's.
    const context = await browser.newContext({ timezoneId: 'America/Los_Angeles', locale: 'en-US' });
    const page = await context.newPage();
    const errors = collectErrors(page);

    // The booking form, with a trade chosen.
    await page.goto(`${stack.url}/book?category=plumbing`);
    await page.getByRole('heading', { name: 'Book a Service' }).waitFor();
    await expect.poll(() => page.getByLabel(/category/i).inputValue()).toBe('plumbing');
    await page.getByLabel(/name/i).fill('Dana Whitfield');
    await page.getByLabel(/phone/i).fill('(415) 555-0142');
    await page.getByLabel(/address/i).fill('742 Evergreen Terrace, Springfield');

    // As soon as possible is priced first, with the rush fee.
    const breakdown = page.getByTestId('booking-estimate');
    await breakdown.getByText('As-soon-as-possible fee').waitFor();

    // A small job tomorrow at 9:00 in the customer's time zone: no rush fee.
    await page.getByLabel('Job size').selectOption('small');
    await page.getByLabel('Choose a date and time').check();
    const tomorrowNine = await page.evaluate(() => {
      const at = new Date();
      at.setDate(at.getDate() + 1);
      at.setHours(9, 0, 0, 0);
      const pad = (n: number) => String(n).padStart(2, '0');
      return { local: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T09:00`, shown: at.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) };
    });
    await page.getByLabel('Date and time', { exact: true }).fill(tomorrowNine.local);
    await expect.poll(() => breakdown.getByText('As-soon-as-possible fee').count()).toBe(0);
    await breakdown.getByText('Estimated total').waitFor();
    const quoted = await breakdown.locator('dl').innerText();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Sent: the tracking page shows the time asked for and the figures that were quoted.
    await page.getByRole('button', { name: /book|submit|request/i }).click();
    await page.waitForURL(/\/track#id=[A-Za-z0-9_-]{22}$/);
    const tracked = page.getByTestId('tracked-estimate');
    await tracked.waitFor();
    expect(await page.getByTestId('tracked-requested-time').innerText()).toBe(`Requested for ${tomorrowNine.shown}`);
    const stored = await tracked.locator('dl').innerText();
    expect(stored).toBe(quoted.replace(/Platform fee \(\d+%\)/, 'Platform fee'));
    expect(errors).toEqual([]);
    await context.close();
  });
});
