import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { HOME, NEAR, OFFLINE_GEOCODER, collectErrors, eventually, requestFromPage, startJourneyStack, toast } from './journey';
import { approvedPro, asPro, bringOnCall, ownerCookie, signIn, type Pro } from './people';

/**
 * Mark Arrived is proven, not taken on the pro's word: a device at the customer's address records
 * the arrival at once; a device with no fix turns the press into a question on the customer's
 * timeline ("Has your pro arrived?"), and the customer's yes records it.
 */

/** The polls and live events of both pages can take a while on a busy machine. */
const LIVE = { timeout: 30_000 };

/** Waits until the top of the tracking page says `headline`. */
async function trackingSays(page: Page, headline: string): Promise<void> {
  await page.getByTestId('tracking-now').getByText(headline, { exact: true }).waitFor(LIVE);
}

describe('proof of arrival', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-arrival-e2e-'));
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

  /**
   * A customer at HOME asks for `service` from their browser, and `pro` (on call nearby) accepts it.
   * Answers the customer's page on the job's tracking page and the job's id.
   */
  async function acceptedRequest(pro: Pro, service: string, customerName: string): Promise<{ customer: Page; customerErrors: string[]; jobId: string }> {
    const customerContext = await newContext({ geolocation: HOME, permissions: ['geolocation'] });
    const customer = await customerContext.newPage();
    const customerErrors = collectErrors(customer);
    await customer.goto(`${stack.url}/`);
    const jobId = await requestFromPage(customer, {
      name: customerName,
      email: 'customer@example.com',
      phoneNumber: '(415) 555-0142',
      service,
      description: 'Water is leaking under the kitchen sink.',
    });
    await eventually(
      () => asPro(stack.url, pro, 'GET', `/api/jobs/offers/${pro.id}`) as Promise<{ id: string }[]>,
      (offers) => offers.some((offer) => offer.id === jobId),
    );
    await asPro(stack.url, pro, 'POST', `/api/jobs/accept/${jobId}`, {});
    await customer.goto(`${stack.url}/track#id=${jobId}`);
    return { customer, customerErrors, jobId };
  }

  /** The pro's own job page, in a browser whose geolocation is `options`' (none given: no fix at all). */
  async function proJobPage(pro: Pro, jobId: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<{ worker: Page; workerErrors: string[] }> {
    const context = await newContext(options);
    await signIn(context, stack.url, pro);
    const worker = await context.newPage();
    const workerErrors = collectErrors(worker);
    await worker.goto(`${stack.url}/worker/jobs/${jobId}`);
    await worker.getByRole('button', { name: 'Mark Arrived' }).waitFor(LIVE);
    return { worker, workerErrors };
  }

  it('asks the customer to confirm when the pro\'s device has no fix, and records the arrival on their yes', async () => {
    // Prepare: a plumber on call nearby takes the customer's request; their browser has no location at all.
    const pro = await approvedPro(stack.url, owner, 'Quinn Harper', ['plumbing']);
    await bringOnCall(stack.url, pro, NEAR);
    const { customer, customerErrors, jobId } = await acceptedRequest(pro, 'Plumbing', 'Dana Whitfield');
    await trackingSays(customer, 'Quinn Harper accepted your request');
    const { worker, workerErrors } = await proJobPage(pro, jobId);

    // Act: the pro presses Mark Arrived.
    await worker.getByRole('button', { name: 'Mark Arrived' }).click();

    // Assess: not arrived; the pro is told the customer was asked, and the 45-minute countdown still runs.
    await toast(worker, 'Waiting for the customer');
    const claim = worker.getByTestId('arrival-claim');
    await claim.getByText('Waiting for the customer to confirm you have arrived').waitFor(LIVE);
    await claim.getByText(/We asked the customer to confirm you have arrived/).waitFor();
    expect(await worker.getByTestId('job-state').textContent()).toBe('Accepted');
    await worker.getByText('Arrive within').waitFor();
    expect(await seriousA11yViolations(worker)).toEqual([]);

    // Act: the question reaches the customer's timeline by itself, and they answer yes.
    await trackingSays(customer, 'Quinn Harper says they have arrived');
    const question = customer.getByRole('group', { name: 'Has your pro arrived?' });
    await question.waitFor(LIVE);
    expect(await seriousA11yViolations(customer)).toEqual([]);
    await question.getByRole('button', { name: 'Yes' }).click();

    // Assess: arrived on both sides, the question gone.
    await toast(customer, 'Arrival confirmed');
    await trackingSays(customer, 'Quinn Harper has arrived');
    expect(await customer.getByRole('group', { name: 'Has your pro arrived?' }).count()).toBe(0);
    await worker.getByRole('button', { name: 'Start Work' }).waitFor(LIVE);
    expect(await worker.getByTestId('job-state').textContent()).toBe('Arrived');
    expect(await worker.getByTestId('arrival-claim').count()).toBe(0);
    expect(customerErrors).toEqual([]);
    expect(workerErrors).toEqual([]);
  });

  it('records the arrival at once when the pro\'s device is at the customer\'s address, without asking the customer', async () => {
    // Prepare: an electrician takes the request; their phone's location is the customer's door.
    const pro = await approvedPro(stack.url, owner, 'Sky Anders', ['electrical']);
    await bringOnCall(stack.url, pro, NEAR);
    const { customer, customerErrors, jobId } = await acceptedRequest(pro, 'Electrical', 'Robin Diaz');
    const { worker, workerErrors } = await proJobPage(pro, jobId, { geolocation: { ...HOME, accuracy: 15 }, permissions: ['geolocation'] });

    // Act
    await worker.getByRole('button', { name: 'Mark Arrived' }).click();

    // Assess
    await toast(worker, 'Arrival recorded');
    await worker.getByRole('button', { name: 'Start Work' }).waitFor(LIVE);
    expect(await worker.getByTestId('job-state').textContent()).toBe('Arrived');
    await trackingSays(customer, 'Sky Anders has arrived');
    expect(await customer.getByRole('group', { name: 'Has your pro arrived?' }).count()).toBe(0);
    const job = (await asPro(stack.url, pro, 'GET', `/api/jobs/${jobId}`)) as { state: string; arrivalClaim: unknown };
    expect(job).toMatchObject({ state: 'arrived', arrivalClaim: null });
    expect(customerErrors).toEqual([]);
    expect(workerErrors).toEqual([]);
  });
});
