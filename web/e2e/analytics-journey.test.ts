import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { collectErrors, OFFLINE_GEOCODER, requestFromPage, startJourneyStack } from './journey';
import { ownerCookie } from './people';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-e2e-analytics-'));
let stack: RunningStack;
let browser: Browser;
let owner: string;

describe('the owner reads the analytics of a request nobody took, and exports it', () => {
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startJourneyStack(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    owner = await ownerCookie(stack);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the funnel and the no-pro share from counters, loads the charts only on that tab, and downloads the jobs as CSV', async () => {
    // Prepare: a customer's request with no pro on call anywhere: it is sent and finds nobody
    const customer = await (await browser.newContext()).newPage();
    await customer.goto(`${stack.url}/`);
    const jobId = await requestFromPage(customer, {
      name: 'Dana Whitfield',
      email: 'dana@example.com',
      phoneNumber: '(415) 555-0142',
      service: 'Plumbing',
      description: '=HYPERLINK("http://evil.example") the kitchen sink drains slowly.',
    });

    const [name, value] = owner.split('=') as [string, string];
    const context = await browser.newContext({ acceptDownloads: true });
    await context.addCookies([{ name, value, url: stack.url }]);
    const page = await context.newPage();
    const errors = collectErrors(page);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });

    // Act: the dashboard opens on Applications; then Analytics
    await page.goto(`${stack.url}/admin`);
    await page.getByRole('tab', { name: 'Applications' }).waitFor();
    const chartsBeforeTab = scripts.filter((url) => url.includes('analytics-charts'));
    await page.getByRole('tab', { name: 'Analytics' }).click();

    // Assess: counters, not guesses
    const funnel = page.getByRole('region', { name: 'Funnel' });
    const figure = (step: string) => funnel.locator('dl > div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${step}$`) }) }).locator('dd');
    await figure('Sent').waitFor();
    expect(await figure('Sent').textContent()).toBe('1');
    expect(await figure('Accepted').textContent()).toBe('0');
    const noPro = page.getByRole('region', { name: 'Jobs with no pro' });
    await noPro.getByRole('cell', { name: 'Plumbing' }).waitFor();
    expect(await noPro.getByRole('cell', { name: '100%' }).count()).toBe(1);
    await page.getByText('No payments from').waitFor();
    await page.getByText('No accepts in this range').waitFor();
    expect(chartsBeforeTab).toEqual([]);
    expect(scripts.some((url) => url.includes('analytics-charts'))).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Act: the jobs export of the default range
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download jobs' }).click()]);
    const file = await download.path();
    const csv = (await import('node:fs')).readFileSync(file, 'utf8');

    // Assess: the job, the formula in its description made harmless text
    expect(download.suggestedFilename()).toMatch(/^jobs-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const row = csv.split('\r\n').find((line) => line.startsWith(`${jobId},`));
    expect(row).toContain(`,"'=HYPERLINK(""http://evil.example"") the kitchen sink drains slowly.",`);
    expect(errors).toEqual([]);
  });
});
