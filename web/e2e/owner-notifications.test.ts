import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { collectErrors, startJourneyStack } from './journey';
import { ownerCookie } from './people';

/** A valid 1x1 PNG: the ID front, ID back and selfie the applicant uploads. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const image = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG });

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-e2e-owner-notifications-'));
let stack: RunningStack;
let browser: Browser;

describe("the owner's bell", () => {
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startJourneyStack(dataDir), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows a new worker application live while the console is open, and its link opens the Applications tab', async () => {
    // The owner has the console open, on another tab than Applications.
    const [name, value] = (await ownerCookie(stack)).split('=') as [string, string];
    const ownerContext = await browser.newContext();
    await ownerContext.addCookies([{ name, value, url: stack.url }]);
    const admin = await ownerContext.newPage();
    const adminErrors = collectErrors(admin);
    await admin.goto(`${stack.url}/admin?tab=documents`);
    await admin.getByRole('heading', { name: 'Owner Dashboard', level: 1 }).waitFor();
    await admin.locator('[data-testid="realtime-status"][data-status="connected"]').waitFor();
    const bell = admin.getByRole('button', { name: /^Notifications/ });
    expect(await bell.getAttribute('aria-label')).toBe('Notifications');

    // A worker applies in a browser of their own.
    const applicantContext = await browser.newContext();
    const apply = await applicantContext.newPage();
    await apply.goto(`${stack.url}/worker/apply`);
    await apply.getByRole('heading', { name: 'Apply to be a Pro' }).waitFor();
    await apply.getByLabel('Full name').fill('Jordan Alvarez');
    await apply.getByLabel('Phone number').fill('(415) 555-0123');
    await apply.getByLabel('Email address').fill(`jordan-${Date.now()}@example.com`);
    await apply.getByLabel('Home address').fill('500 Howard Street, San Francisco, CA 94105');
    await apply.getByLabel('Years of experience').fill('5');
    await apply.getByRole('checkbox', { name: 'Electrical' }).check();
    await apply.getByLabel('Hourly rate (USD)').fill('55');
    await apply.getByLabel('Working hours').fill('Weekdays 8am-6pm');
    await apply.getByLabel('Last 4 digits of SSN').fill('4321');
    for (const agreement of [/independent worker/, /quality work/, /arrive on time/, /full responsibility/, /accept the legal agreement/]) {
      await apply.getByRole('checkbox', { name: agreement }).check();
    }
    await apply.getByLabel('Photo ID (front)').setInputFiles(image('id-front.png'));
    await apply.getByLabel('Photo ID (back)').setInputFiles(image('id-back.png'));
    await apply.getByLabel('Selfie').setInputFiles(image('selfie.png'));
    await apply.getByRole('button', { name: 'Submit Application' }).click();
    await apply.getByRole('heading', { name: 'Application Under Review' }).waitFor();
    await applicantContext.close();

    // The owner's bell has it at once, without a reload: one unread, in the panel with the push control.
    await admin.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
    await bell.click();
    const panel = admin.getByRole('dialog', { name: 'Notifications' });
    const item = panel.getByRole('listitem').filter({ hasText: 'New worker application' });
    await item.waitFor();
    expect(await item.textContent()).toContain('Jordan Alvarez applied to work');
    await panel.getByTestId('push-control').waitFor();
    expect(await seriousA11yViolations(admin)).toEqual([]);

    // Its link opens the Applications tab, where the application waits, and the bell has nothing unread.
    await item.getByRole('link', { name: /^View/ }).click();
    await admin.waitForURL(/\/admin(\?tab=applications)?$/);
    await admin.getByRole('tab', { name: 'Applications', selected: true }).waitFor();
    await admin.getByRole('button', { name: 'Approve Jordan Alvarez' }).waitFor();
    expect(await bell.getAttribute('aria-label')).toBe('Notifications');

    // Read is remembered by the server: after a reload it is still there, and still read.
    await admin.reload();
    await admin.locator('[data-testid="realtime-status"][data-status="connected"]').waitFor();
    await bell.click();
    const again = panel.getByRole('listitem').filter({ hasText: 'New worker application' });
    await again.waitFor();
    expect(await again.getByRole('button', { name: /^Mark read/ }).count()).toBe(0);
    expect(await bell.getAttribute('aria-label')).toBe('Notifications');
    expect(adminErrors).toEqual([]);
    await ownerContext.close();
  });
});
