import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { OFFLINE_GEOCODER, collectErrors, requestFromPage, startJourneyStack, toast } from './journey';
import { approvedPro, asPro, ownerCookie, signIn } from './people';

/**
 * The owner runs a job by hand: a request whose search ended with nobody waits under "Needs
 * attention"; the owner opens it, offers it to a pro they choose, the pro accepts it from their
 * own dashboard, and the job's timeline shows every step with who made it.
 */
describe("the owner's jobs", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-e2e-owner-jobs-'));
  let stack: RunningStack;
  let browser: Browser;
  let owner: string;
  const contexts: BrowserContext[] = [];

  async function newContext(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
    const context = await browser.newContext(options);
    contexts.push(context);
    return context;
  }

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startJourneyStack(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    owner = await ownerCookie(stack);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds a job with no pro under Needs attention, offers it to a chosen pro who accepts it, and reads its timeline', async () => {
    // Prepare: no plumber is on call, so the customer's request finds nobody.
    const customer = await (await newContext()).newPage();
    await customer.goto(`${stack.url}/`);
    const jobId = await requestFromPage(customer, {
      name: 'Dana Whitfield',
      email: 'dana@example.com',
      phoneNumber: '(415) 555-0142',
      service: 'Plumbing',
      description: 'Water is leaking under the kitchen sink.',
    });
    // A plumber comes on call without sharing a position (so no automatic re-offer reaches them) and
    // keeps their dashboard open.
    const pro = await approvedPro(stack.url, owner, 'Pat Rivera', ['plumbing']);
    await asPro(stack.url, pro, 'POST', '/api/workers/clock-in');
    await asPro(stack.url, pro, 'POST', '/api/workers/availability', { isAvailable: true });
    const workerContext = await newContext();
    await signIn(workerContext, stack.url, pro);
    const worker = await workerContext.newPage();
    const workerErrors = collectErrors(worker);
    await worker.goto(`${stack.url}/worker/dashboard`);
    await worker.getByRole('heading', { name: 'Worker Dashboard' }).waitFor();
    await worker.getByRole('tab', { name: 'Jobs' }).click();

    // Act 1: the owner opens the Jobs tab; the job waits under Needs attention, and the table says
    // what it is (no pro found), not "Booked".
    const [name, value] = owner.split('=') as [string, string];
    const ownerContext = await newContext();
    await ownerContext.addCookies([{ name, value, url: stack.url }]);
    const admin = await ownerContext.newPage();
    const adminErrors = collectErrors(admin);
    await admin.goto(`${stack.url}/admin?tab=jobs`);
    const attention = admin.getByRole('list', { name: 'Jobs that need attention' });
    const waiting = attention.getByRole('listitem').filter({ hasText: 'Dana Whitfield' });
    await waiting.getByText('No pro found').waitFor();
    const table = admin.getByRole('region', { name: 'All jobs' });
    const row = table.getByRole('row').filter({ hasText: 'Dana Whitfield' });
    await row.getByText('No pro found').waitFor();
    expect(await row.getByText('Booked', { exact: true }).count()).toBe(0);
    expect(await seriousA11yViolations(admin)).toEqual([]);

    // Act 2: the owner opens the job and offers it to the plumber they choose.
    await waiting.getByRole('link').click();
    await admin.waitForURL(new RegExp(`/admin/jobs/${jobId}$`));
    await admin.getByRole('heading', { name: /Plumbing/, level: 1 }).waitFor();
    const proChoice = admin.getByLabel('Offer to a pro of the trade');
    await proChoice.locator('option', { hasText: 'Pat Rivera' }).waitFor({ state: 'attached' });
    await proChoice.selectOption({ label: (await proChoice.locator('option', { hasText: 'Pat Rivera' }).textContent())! });
    await admin.getByRole('button', { name: 'Offer', exact: true }).click();
    await toast(admin, 'Offer sent');
    await admin.getByText(/^Pat Rivera \(until/).waitFor();
    expect(await seriousA11yViolations(admin)).toEqual([]);

    // Assess 1: the offer reaches the pro's dashboard like any other, and the pro accepts it.
    const offer = worker.getByRole('article', { name: 'Offer: Plumbing' });
    await offer.waitFor({ timeout: 20_000 });
    await offer.getByRole('button', { name: 'Accept' }).click();
    await toast(worker, 'Job Accepted!');

    // Assess 2: the owner's page shows the pro and the whole timeline, each step with who made it.
    await admin.reload();
    const timeline = admin.getByRole('list', { name: 'Job timeline' });
    await timeline.getByText('Accepted', { exact: true }).waitFor({ timeout: 20_000 });
    const steps = (await timeline.getByRole('listitem').allTextContents()).map((text) => text.replace(/\s+/g, ' '));
    expect(steps[0]).toMatch(/^Job created · by the customer \(Dana Whitfield\)/);
    expect(steps.some((s) => /^No pro found · by the system/.test(s))).toBe(true);
    expect(steps.some((s) => /^Offered to a pro · Pat Rivera · by the owner \(owner\)/.test(s))).toBe(true);
    expect(steps.at(-1)).toMatch(/^Accepted · by Pat Rivera/);
    await admin.getByText('Accepted', { exact: true }).first().waitFor();
    expect(await admin.getByRole('button', { name: 'Offer again' }).count()).toBe(0);
    expect(await seriousA11yViolations(admin)).toEqual([]);
    expect(adminErrors).toEqual([]);
    expect(workerErrors).toEqual([]);
  });

  it("cancels a job with a message that the customer reads on their tracking page", async () => {
    // Prepare: an electrical request that found nobody.
    const customer = await (await newContext()).newPage();
    await customer.goto(`${stack.url}/`);
    const jobId = await requestFromPage(customer, {
      name: 'Robin Diaz',
      email: 'robin@example.com',
      phoneNumber: '(415) 555-0123',
      service: 'Electrical',
      description: 'Half the sockets in the kitchen stopped working.',
    });
    const [name, value] = owner.split('=') as [string, string];
    const ownerContext = await newContext();
    await ownerContext.addCookies([{ name, value, url: stack.url }]);
    const admin = await ownerContext.newPage();
    const errors = collectErrors(admin);

    // Act: the owner cancels it from its page, with a message.
    await admin.goto(`${stack.url}/admin/jobs/${jobId}`);
    await admin.getByRole('heading', { name: /Electrical/, level: 1 }).waitFor();
    await admin.getByRole('button', { name: 'Cancel job' }).click();
    await admin.getByText('Write a message for the customer: they see it on their request.').waitFor();
    await admin.getByLabel('Cancel with a message to the customer').fill('No electrician is free today; please book again tomorrow morning.');
    await admin.getByRole('button', { name: 'Cancel job' }).click();
    await toast(admin, 'Job cancelled');

    // Assess: the page says so, and the customer's tracking page shows the owner's message.
    await admin.getByText('Cancelled by the owner').waitFor();
    await admin.getByRole('list', { name: 'Job timeline' }).getByText('Cancelled', { exact: true }).waitFor();
    await customer.goto(`${stack.url}/track#id=${jobId}`);
    await customer.getByTestId('cancel-message').getByText(/No electrician is free today/).waitFor({ timeout: 30_000 });
    expect(await seriousA11yViolations(customer)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
