import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-e2e-owner-'));
let stack: RunningStack;
let browser: Browser;

const USERNAME = 'site.owner';
const PASSWORD = 'Lantern-Harbor-42';
const NEW_PASSWORD = 'Granite-Meadow-77';


const navLink = (page: Page, name: string) => page.getByRole('navigation').first().getByRole('link', { name, exact: true });

describe('the owner sets up the account, logs out, logs back in and reads the dashboard', () => {
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStackProcess(dataDir), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes from setup to the dashboard, through logout and a failed login, to real zero analytics', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    // Nobody is set up yet: the nav's owner link leads to the one-time setup.
    await page.goto(stack.url);
    await page.getByRole('heading', { name: 'Book trusted pros in seconds.' }).waitFor();
    await navLink(page, 'Owner Login').click();
    await page.waitForURL(/\/admin\/setup$/);
    await page.getByRole('heading', { name: 'Owner Setup' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // One invalid attempt shows every message and stays put.
    await page.getByLabel('Username').fill('ab');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('different');
    await page.getByRole('button', { name: 'Create Owner Account' }).click();
    await page.getByText('Enter the setup code').waitFor();
    await page.getByText('Username must be at least 3 characters').waitFor();
    await page.getByText('Password must be at least 8 characters long.').waitFor();
    await page.getByText('Passwords do not match. Please try again.').waitFor();
    await page.getByText('Enter a valid email address').waitFor();
    expect(await page.getByLabel('Setup code').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(page.url()).toMatch(/\/admin\/setup$/);

    // Whoever reaches the page first does not get the marketplace: a wrong setup code is refused,
    // with where to find the right one (the console npm start printed it on, with this page's address).
    expect(stack.setupCode).toMatch(/^[A-Za-z0-9]{24}$/);
    await page.getByLabel('Setup code').fill('NotTheCode1234567890abcd');
    await page.getByLabel('Username').fill(USERNAME);
    await page.getByLabel('Email').fill('site.owner@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Owner Account' }).click();
    await page.locator('#setup-code-error').getByText(/That setup code is not right\. Find it in the console where npm start runs/).waitFor();
    expect(await page.getByLabel('Setup code').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(page.url()).toMatch(/\/admin\/setup$/);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The real setup, with the code the console showed, logs the owner in and opens the dashboard after a short pause.
    await page.getByLabel('Setup code').fill(stack.setupCode!);
    await page.getByRole('button', { name: 'Create Owner Account' }).click();
    await page.getByText('Admin Account Created!').waitFor();
    await page.waitForURL(/\/admin$/);
    await page.getByRole('heading', { name: 'Owner Dashboard', level: 1 }).waitFor();
    await navLink(page, 'Owner Dashboard').waitFor();
    await page.getByText('No pending applications').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Logout ends the session: the login screen, and the nav link says Owner Login again.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByText('Logged Out').waitFor();
    await page.waitForURL(/\/admin\/login$/);
    await page.getByRole('heading', { name: 'Owner Access' }).waitFor();
    await navLink(page, 'Owner Login').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Setup happens once: its address now leads to the login; the dashboard does too.
    await page.goto(`${stack.url}/admin/setup`);
    await page.waitForURL(/\/admin\/login$/);
    await page.goto(`${stack.url}/admin`);
    await page.waitForURL(/\/admin\/login$/);

    // A wrong password is refused with the server's message.
    await page.getByLabel('Username').fill(USERNAME);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Login Failed').waitFor();
    await page.getByText('Invalid username or password').waitFor();
    expect(page.url()).toMatch(/\/admin\/login$/);

    // The right one opens the dashboard with its four tabs.
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Login Successful').waitFor();
    await page.waitForURL(/\/admin$/);
    await navLink(page, 'Owner Dashboard').waitFor();
    await page.getByRole('tab', { name: 'Applications' }).waitFor();
    const tabs = page.getByRole('tab');
    expect(await tabs.allTextContents()).toEqual(['Applications', 'Workers', 'Jobs', 'Analytics', 'Documents']);
    expect(await page.getByRole('tab', { name: 'Applications' }).getAttribute('aria-selected')).toBe('true');

    // Arrow keys move between tabs; the panel follows.
    await page.getByRole('tab', { name: 'Applications' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('tab', { name: 'Workers' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tab', { name: 'Workers' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByText('No workers yet').waitFor();
    await page.keyboard.press('ArrowRight');
    await page.getByText('No jobs yet').waitFor();

    // Analytics: every count is a real zero from the API, and no made-up rating.
    await page.getByRole('tab', { name: 'Analytics' }).click();
    await page.getByText('No reviews yet').waitFor();
    for (const group of ['Worker applications', 'Company applications', 'Workers', 'Jobs']) {
      const counts = await page.getByRole('group', { name: group, exact: true }).locator('dd').allTextContents();
      expect(counts.length).toBeGreaterThan(0);
      expect(counts.every((count) => count === '0')).toBe(true);
    }
    expect(await page.getByText('4.5').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Change password: a wrong current password is refused under its field, then it works.
    await page.getByRole('link', { name: 'Change Password' }).click();
    await page.waitForURL(/\/account\/change-password$/);
    await page.getByRole('heading', { name: 'Change Password' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    await page.getByLabel('Current password').fill('not-the-password');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Password change failed').waitFor();
    await page.getByText('Current password is incorrect').first().waitFor();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Password Changed').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    expect(errors).toEqual([]);
  });

  it('sends a visitor without a session from change password to the home page', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.url}/account/change-password`);
    await page.waitForURL(`${stack.url}/`);
    await page.getByRole('heading', { name: 'Book trusted pros in seconds.' }).waitFor();
  });
});
