import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { collectErrors, eventually, mailsTo, startJourneyStack } from './journey';
import { approvedPro, ownerCookie } from './people';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-e2e-password-reset-'));
let stack: RunningStack;
let browser: Browser;

/** The password approvedPro gives the pro's account (web/e2e/people.ts). */
const OLD_PASSWORD = 'correct-horse-42';
const NEW_PASSWORD = 'Granite-Lantern-Orbit-58';

describe('a pro who forgot their password asks for a link, sets a new password from the mail and signs in with it', () => {
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startJourneyStack(dataDir), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes from the login\'s "Forgot password?" to the mailed link, a new password and the dashboard; the old password no longer works', async () => {
    // Prepare: an approved pro with an account, as the worker journey leaves one
    const owner = await ownerCookie(stack);
    const pro = await approvedPro(stack.url, owner, 'Rosa Delgado', ['plumbing']);
    const page = await browser.newPage();
    const errors = collectErrors(page);

    // The login page's "Forgot password?" leads to the request form.
    await page.goto(`${stack.url}/worker/login`);
    await page.getByRole('heading', { name: 'Worker Login' }).waitFor();
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    await page.getByRole('heading', { name: 'Forgot Password' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The honest answer, the same whether or not an account uses the address.
    await page.getByLabel('Email').fill(pro.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText("If an account uses that address, we've sent a link. It works for 30 minutes.").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The mail arrives once (the table's stream hands it to send-mail), its link on the site with the secret in the fragment.
    const mails = await eventually(
      () => mailsTo(dataDir, pro.email),
      (all) => all.some((m) => m.subject === 'Choose a new Fixly password'),
    );
    const resets = mails.filter((m) => m.subject === 'Choose a new Fixly password');
    expect(resets).toHaveLength(1);
    const link = resets[0]!.text!.match(/Choose a new password: (\S+)/)?.[1];
    expect(link).toMatch(new RegExp(`^${stack.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/reset-password#token=[A-Za-z0-9_-]{43}$`));

    // Opened from the mail client in a fresh browser: the page takes the secret out of the address bar.
    const fromMail = await browser.newContext();
    const reset = await fromMail.newPage();
    const resetErrors = collectErrors(reset);
    await reset.goto(link!);
    await reset.getByRole('heading', { name: 'Choose a New Password' }).waitFor();
    await eventually(async () => reset.url(), (url) => !url.includes('#'));
    expect(reset.url()).toBe(`${stack.url}/reset-password`);
    expect(await seriousA11yViolations(reset)).toEqual([]);

    // The same rules as every new password, then the new one.
    await reset.getByLabel('New password', { exact: true }).fill('password123');
    await reset.getByLabel('Confirm new password').fill('password123');
    await reset.getByRole('button', { name: 'Set new password' }).click();
    await reset.locator('#reset-password-error').waitFor();
    await reset.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await reset.getByLabel('Confirm new password').fill(NEW_PASSWORD);
    await reset.getByRole('button', { name: 'Set new password' }).click();
    await reset.getByText('Password changed. Sign in with your new password.').waitFor();
    expect(await seriousA11yViolations(reset)).toEqual([]);

    // "Sign in" leads to the pro's login; the new password opens the dashboard.
    await reset.getByRole('link', { name: 'Sign in' }).click();
    await reset.waitForURL(/\/worker\/login$/);
    await reset.getByLabel('Email').fill(pro.email);
    await reset.getByLabel('Password').fill(NEW_PASSWORD);
    await reset.getByRole('button', { name: 'Sign In' }).click();
    await reset.waitForURL(/\/worker\/dashboard$/);
    await reset.getByRole('heading', { name: 'Worker Dashboard' }).waitFor();

    // The old password no longer signs in.
    await page.goto(`${stack.url}/worker/login`);
    await page.getByLabel('Email').fill(pro.email);
    await page.getByLabel('Password').fill(OLD_PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Invalid email or password').first().waitFor();
    expect(page.url()).toMatch(/\/worker\/login$/);

    // The link worked once: opened again, it says so and offers a new one.
    const again = await fromMail.newPage();
    await again.goto(link!);
    await again.getByLabel('New password', { exact: true }).fill('Another-Fresh-Password-9');
    await again.getByLabel('Confirm new password').fill('Another-Fresh-Password-9');
    await again.getByRole('button', { name: 'Set new password' }).click();
    await again.getByText(/This link has already been used/).waitFor();
    await again.getByRole('link', { name: 'Send a new link' }).click();
    await again.waitForURL(/\/forgot-password$/);

    expect([...errors, ...resetErrors]).toEqual([]);
    await fromMail.close();
  });
});
