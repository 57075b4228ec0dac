import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { toast } from './journey';
import { mailedAccountToken } from './people';

/** A valid 1x1 PNG: the ID front, ID back and selfie the applicant uploads. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const image = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG });

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-worker-e2e-'));
let stack: RunningStack;
let browser: Browser;

const email = `pro-${Date.now()}@example.com`;
const password = 'correct-horse-42';

/**
 * The owner approves the application on the dashboard: set up through the API (the stack starts
 * empty), then, in the owner's own browser, open the Applications tab, look at the ID front, approve.
 */
async function approveApplication(applicantName: string): Promise<void> {
  const setup = await fetch(`${stack.url}/api/admin/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ setupCode: stack.setupCode, username: 'owner', email: 'owner@example.com', password: 'owner-password-1', confirm: 'owner-password-1' }),
  });
  expect(setup.status).toBe(201);
  const [name, value] = setup.headers.getSetCookie()[0]!.split(';')[0]!.split('=') as [string, string];
  const owner = await browser.newContext();
  await owner.addCookies([{ name, value, url: stack.url }]);
  const page = await owner.newPage();

  await page.goto(`${stack.url}/admin`);
  await page.getByRole('tab', { name: 'Applications' }).click();
  const [idFront] = await Promise.all([
    owner.waitForEvent('page'),
    page.getByRole('button', { name: `View ID front of ${applicantName}` }).click(),
  ]);
  // The tab opens first and then follows the short-lived presigned link.
  await idFront.waitForURL(/X-Amz-Signature=/);
  await idFront.close();
  await page.getByRole('button', { name: `Approve ${applicantName}` }).click();
  await page.getByText('Worker Approved', { exact: true }).first().waitFor();
  await owner.close();
}

describe('a pro applies, is approved, creates an account and works the dashboard', () => {
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStackProcess(dataDir), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('applies with three ID images, is approved, signs up, logs out and in, clocks in and toggles availability', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    // The application: one attempt without documents, then a complete one.
    await page.goto(`${stack.url}/worker/apply`);
    await page.getByRole('heading', { name: 'Apply to be a Pro' }).waitFor();
    await page.getByLabel('Full name').fill('Riley Carpenter');
    await page.getByLabel('Phone number').fill('(415) 555-0199');
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Home address').fill('1200 Market Street, San Francisco, CA 94102');
    await page.getByLabel('Years of experience').fill('7');
    await page.getByRole('checkbox', { name: 'Plumbing' }).check();
    await page.getByRole('checkbox', { name: 'General Handyman' }).check();
    await page.getByLabel('Hourly rate (USD)').fill('42.50');
    await page.getByLabel('Last 4 digits of SSN').fill('1234');
    await page.getByLabel('Working hours').fill('Weekdays 8am-6pm');
    await page.getByRole('checkbox', { name: 'I can take same-day jobs' }).check();
    for (const name of [/independent worker/, /quality work/, /arrive on time/, /full responsibility/, /accept the legal agreement/]) {
      await page.getByRole('checkbox', { name }).check();
    }
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await page
      .getByText('Missing Documents - Please upload all required documents: Photo ID (front and back) and selfie.')
      .first()
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByLabel('Photo ID (front)').setInputFiles(image('id-front.png'));
    await page.getByLabel('Photo ID (back)').setInputFiles(image('id-back.png'));
    await page.getByLabel('Selfie').setInputFiles(image('selfie.png'));
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await page.getByRole('heading', { name: 'Application Under Review' }).waitFor();
    await toast(page, 'Application Submitted');
    await page.getByText('2-3 business days', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Back to Home' }).waitFor();

    // The owner looks at the ID and approves it.
    await approveApplication('Riley Carpenter');

    // The approved pro creates the account and lands on the dashboard.
    await page.locator('main').getByRole('link', { name: 'Worker Login' }).click();
    await page.waitForURL(/\/worker\/login$/);
    await page.getByRole('link', { name: 'Create Account' }).click();
    await page.waitForURL(/\/worker\/signup$/);
    await page.getByRole('heading', { name: 'Create Worker Account' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email Me a Link' }).click();
    await page.getByText('Check your mail').waitFor();
    // The link arrives in the applicant's mailbox; opened, it names the address and sets the password.
    const token = await mailedAccountToken(stack.url, email, 'Your link to set up your Fixly pro account');
    await page.goto(`${stack.url}/worker/signup#token=${token}`);
    await page.getByText(email).waitFor();
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Account Created!' }).waitFor();
    await page.waitForURL(/\/worker\/dashboard$/);
    await page.getByRole('heading', { name: 'Worker Dashboard' }).waitFor();
    await page.getByText('Welcome, Riley Carpenter').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('workerToken'))).toBeTruthy();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Logout from the Jobs tab, then log in again.
    await page.getByRole('tab', { name: 'Jobs' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/worker\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('workerToken'))).toBeNull();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await toast(page, 'Welcome back');
    await page.waitForURL(/\/worker\/dashboard$/);

    // The time clock.
    const status = page.getByTestId('clock-status');
    expect(await status.textContent()).toBe('Clocked out');
    await page.getByRole('button', { name: 'Clock In' }).click();
    await toast(page, 'Clocked In');
    await expect.poll(() => status.textContent()).toBe('Clocked in');
    expect(await page.getByText('No clock-in yet').count()).toBe(0);

    // Availability.
    const availability = page.getByRole('switch', { name: 'Available for jobs' });
    const before = (await availability.getAttribute('aria-checked')) === 'true';
    await availability.click();
    await toast(page, before ? 'Now Unavailable' : 'Now Available');
    await expect.poll(() => availability.getAttribute('aria-checked')).toBe(String(!before));
    expect(errors).toEqual([]);
  });

  it('makes no account for someone who knows only an email: the link goes to that mailbox, and a made-up link is refused', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.url}/worker/signup`);
    // The page asks only for the address, and answers the same whether or not it applied.
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    await page.getByLabel('Email').fill(`stranger-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Email Me a Link' }).click();
    await page.getByText('Check your mail').waitFor();

    // A link that was never mailed sets no password, and the page offers a new one.
    await page.goto(`${stack.url}/worker/signup#token=Tm90QVJlYWxMaW5rQnV0U2hhcGVkTGlrZU9uZTAxMjM`);
    const refusal = page.getByRole('alert');
    await refusal.filter({ hasText: 'This link does not work' }).waitFor();
    await page.getByRole('button', { name: 'Send a new link' }).waitFor();
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('workerToken'))).toBeNull();
    expect(page.url()).toMatch(/\/worker\/signup$/);
  });
});
