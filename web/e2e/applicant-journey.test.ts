import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { collectErrors, eventually, mailsTo, startJourneyStack, toast } from './journey';
import { ownerCookie } from './people';

/** A valid 1x1 PNG: the ID front, ID back and selfie the applicant uploads. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const image = (name: string) => ({ name, mimeType: 'image/png', buffer: PNG });

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-e2e-applicant-'));
let stack: RunningStack;
let browser: Browser;
let owner: string;

const password = 'applicant-pass-42';

/** Files a worker application from the page, as an applicant does. */
async function apply(page: Page, fullName: string, email: string): Promise<void> {
  await page.goto(`${stack.url}/worker/apply`);
  await page.getByRole('heading', { name: 'Apply to be a Pro' }).waitFor();
  await page.getByLabel('Full name').fill(fullName);
  await page.getByLabel('Phone number').fill('(415) 555-0166');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Home address').fill('1 Dr Carlton B Goodlett Pl, San Francisco, CA 94102');
  await page.getByLabel('Years of experience').fill('6');
  await page.getByRole('checkbox', { name: 'Plumbing' }).check();
  await page.getByRole('checkbox', { name: 'Electrical' }).check();
  await page.getByLabel('Hourly rate (USD)').fill('48');
  await page.getByLabel('Working hours').fill('Weekdays 7am-5pm');
  await page.getByLabel('Last 4 digits of SSN').fill('5678');
  for (const agreement of [/independent worker/, /quality work/, /arrive on time/, /full responsibility/, /accept the legal agreement/]) {
    await page.getByRole('checkbox', { name: agreement }).check();
  }
  await page.getByLabel('Photo ID (front)').setInputFiles(image('id-front.png'));
  await page.getByLabel('Photo ID (back)').setInputFiles(image('id-back.png'));
  await page.getByLabel('Selfie').setInputFiles(image('selfie.png'));
  await page.getByRole('button', { name: 'Submit Application' }).click();
  await page.getByRole('heading', { name: 'Application Under Review' }).waitFor();
}

/** The account link in the newest mail with `subject` to `email`, once the stack's mail sender has sent it. */
async function mailedAccountLink(email: string, subject: string): Promise<string> {
  const mails = await eventually(
    () => mailsTo(dataDir, email),
    (all) => all.some((m) => m.subject === subject),
  );
  const link = mails.filter((m) => m.subject === subject).at(-1)!.text!.match(/(?:Create your worker account|Set your password): (\S+)/)?.[1];
  expect(link).toMatch(new RegExp(`^${stack.url}/worker/signup#token=[A-Za-z0-9_-]{43}$`));
  return link!;
}

/** The mailed link opened: the page names the application's address, takes the secret out of the address bar, and makes the account. */
async function createAccountFromLink(page: Page, link: string, email: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('heading', { name: 'Create Worker Account' }).waitFor();
  await page.getByText(email).waitFor();
  expect(page.url()).toBe(`${stack.url}/worker/signup`);
  expect(await page.getByLabel('Email').count()).toBe(0);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByRole('heading', { name: 'Account Created!' }).waitFor();
  await page.waitForURL(/\/worker\/dashboard$/);
}

/** The account, from the link the "received" mail carried, as the success screen says. */
async function createAccountFromSuccessScreen(page: Page, email: string): Promise<void> {
  await page.getByText('with a link to create your worker account').waitFor();
  await createAccountFromLink(page, await mailedAccountLink(email, 'We received your application to work with Fixly'), email);
}

/** The owner's Applications tab, in a browser of the owner's own. */
async function ownerApplications() {
  const [name, value] = owner.split('=') as [string, string];
  const context = await browser.newContext();
  await context.addCookies([{ name, value, url: stack.url }]);
  const page = await context.newPage();
  await page.goto(`${stack.url}/admin`);
  await page.getByRole('tab', { name: 'Applications' }).click();
  return { context, page };
}

describe('an applicant with an account, from applying to the live decision', () => {
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startJourneyStack(dataDir), launchBrowser()]);
    owner = await ownerCookie(stack);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('applies, creates an account at once, waits on "Application Under Review", and the approval opens the dashboard live', async () => {
    // The worker applies and creates the account straight from the success screen.
    const email = `casey-${Date.now()}@example.com`;
    const applicantContext = await browser.newContext();
    const page = await applicantContext.newPage();
    const errors = collectErrors(page);
    await apply(page, 'Casey Morgan', email);
    await createAccountFromSuccessScreen(page, email);

    // Their account shows the application's status, and nothing of the console.
    await page.getByRole('heading', { name: 'Application Under Review' }).waitFor();
    const summary = page.getByRole('definition');
    await summary.filter({ hasText: 'Casey Morgan' }).waitFor();
    await summary.filter({ hasText: 'Plumbing, Electrical' }).waitFor();
    expect(await page.getByTestId('application-status').textContent()).toBe('Under review');
    expect(await page.getByRole('tab', { name: 'Jobs' }).count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Signing out and in again: "Account Under Review", back to the same screen.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/worker\/login$/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await toast(page, 'Account Under Review');
    await page.waitForURL(/\/worker\/dashboard$/);
    await page.getByRole('heading', { name: 'Application Under Review' }).waitFor();
    // The review screen listens on the applicant's own channel.
    await page.locator('[data-testid="realtime-status"][data-status="connected"]').waitFor();
    await page.evaluate(() => {
      (window as unknown as { stillThisPage: boolean }).stillThisPage = true;
    });

    // The owner approves in /admin.
    const admin = await ownerApplications();
    await admin.page.getByRole('button', { name: 'Approve Casey Morgan' }).click();
    await toast(admin.page, 'Worker Approved');
    await admin.context.close();

    // The applicant's open page turns into the dashboard, without a reload, with the notification.
    await page.getByRole('heading', { name: 'Worker Dashboard' }).waitFor();
    await page.getByText('Welcome, Casey Morgan').waitFor();
    await toast(page, 'Application approved');
    await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);
    expect(errors).toEqual([]);
    await applicantContext.close();
  });

  it('guides an applicant without an account from the login to making one, and shows a rejection with the notes live', async () => {
    // The worker applies, leaves, and tries to sign in without making an account.
    const email = `drew-${Date.now()}@example.com`;
    const applicantContext = await browser.newContext();
    const page = await applicantContext.newPage();
    const errors = collectErrors(page);
    await apply(page, 'Drew Parker', email);
    await page.goto(`${stack.url}/worker/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await toast(page, 'Login failed');
    const hint = page.getByTestId('no-account-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toContain('Create your account first');

    // The hint leads to the signup with the email filled in, which mails a new link to that address.
    await hint.getByRole('link', { name: 'create your account' }).click();
    await page.waitForURL(/\/worker\/signup$/);
    // The URL changes first; the login form (with its own Email and Password) stays until the signup page renders.
    await page.getByRole('heading', { name: 'Create Worker Account' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.getByRole('button', { name: 'Email Me a Link' }).click();
    await page.getByText('Check your mail').waitFor();
    await createAccountFromLink(page, await mailedAccountLink(email, 'Your link to set up your Fixly pro account'), email);
    await page.getByRole('heading', { name: 'Application Under Review' }).waitFor();
    await page.locator('[data-testid="realtime-status"][data-status="connected"]').waitFor();

    // The owner rejects, saying why (a rejection without notes is refused on the spot).
    const admin = await ownerApplications();
    await admin.page.getByRole('button', { name: 'Reject Drew Parker' }).click();
    await admin.page.getByText('Tell the applicant why they are not approved').waitFor();
    await admin.page.getByLabel('Notes for Drew Parker').fill('Your ID photo was unreadable; please apply again with a clear one.');
    await admin.page.getByRole('button', { name: 'Reject Drew Parker' }).click();
    await toast(admin.page, 'Worker Rejected');
    await admin.context.close();

    // The applicant's open screen says "Not approved", with the notes.
    await page.getByRole('heading', { name: 'Not approved' }).waitFor();
    const notes = page.getByTestId('review-notes');
    await notes.waitFor();
    expect(await notes.textContent()).toBe('Your ID photo was unreadable; please apply again with a clear one.');
    expect(await page.getByTestId('application-status').textContent()).toBe('Not approved');
    expect(errors).toEqual([]);
    await applicantContext.close();
  });

  it('signs up from the approval mail: the owner approves, the mail\'s link opens the signup, and the account lands on the dashboard', async () => {
    // The worker applies and leaves without making an account.
    const email = `jordan-${Date.now()}@example.com`;
    const applicantContext = await browser.newContext();
    const page = await applicantContext.newPage();
    const errors = collectErrors(page);
    await apply(page, 'Jordan Lee', email);
    await applicantContext.close();

    // The owner approves in /admin.
    const admin = await ownerApplications();
    await admin.page.getByRole('button', { name: 'Approve Jordan Lee' }).click();
    await toast(admin.page, 'Worker Approved');
    await admin.context.close();

    // The approval mail arrives (the table's stream hands it to send-mail), once, with the link to make the account.
    const mails = await eventually(
      () => mailsTo(dataDir, email),
      (all) => all.some((m) => m.subject === 'Welcome to Fixly: your application is approved'),
    );
    const welcome = mails.filter((m) => m.subject === 'Welcome to Fixly: your application is approved');
    expect(welcome).toHaveLength(1);
    const link = await mailedAccountLink(email, 'Welcome to Fixly: your application is approved');

    // The link, opened in a fresh browser as from a mail client, makes the account and opens the dashboard.
    const fromMail = await browser.newContext();
    const signup = await fromMail.newPage();
    const signupErrors = collectErrors(signup);
    await createAccountFromLink(signup, link, email);
    await signup.getByRole('heading', { name: 'Worker Dashboard' }).waitFor();
    await signup.getByText('Welcome, Jordan Lee').waitFor();
    expect([...errors, ...signupErrors]).toEqual([]);
    await fromMail.close();
  });
});
