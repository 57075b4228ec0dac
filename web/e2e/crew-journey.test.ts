import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payButtonLabel } from '../../shared/domain/invoice';
import type { CrewBillView } from '../../shared/schemas/views/invoice';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { HOME, NEAR, OFFLINE_GEOCODER, collectErrors, eventually, startJourneyStack, toast, withStackWarnings, trackedIdIn } from './journey';
import { approvedPro, asPro, bringOnCall, ownerCookie, signIn, workToCompletion, type Pro } from './people';

/** What the local Stripe keeps of the transfers it made (its state file in the stack's data folder). */
interface StoredTransfer {
  amount: number;
  destination: string;
  transfer_group: string | null;
  source_transaction: string | null;
}

/**
 * A request for two pros, end to end: the customer asks for two plumbers on the home page and sees
 * the estimate for both; two pros nearby are each offered their own job of it and accept; each works
 * theirs to completion on their own clock; the customer verifies the work once, gets one bill with a
 * line per pro, verifies it and pays it in one card payment on the local Stripe's hosted page; each
 * pro's share is transferred to their own connected account from that one charge.
 */
describe('a request for two pros', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-crew-e2e-'));
  const contexts: BrowserContext[] = [];
  let stack: RunningStack;
  let browser: Browser;
  let ana: Pro;
  let ben: Pro;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startJourneyStack(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    const owner = await ownerCookie(stack);
    [ana, ben] = await Promise.all([approvedPro(stack.url, owner, 'Ana Ortiz', ['plumbing']), approvedPro(stack.url, owner, 'Ben Okafor', ['plumbing'])]);
    await Promise.all([bringOnCall(stack.url, ana, NEAR), bringOnCall(stack.url, ben, NEAR)]);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function newContext(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
    const context = await browser.newContext(options);
    contexts.push(context);
    return context;
  }

  /** The pro sets up payouts on the local Stripe's onboarding, as the earnings page offers. */
  async function setUpPayouts(pro: Pro): Promise<Page> {
    const context = await newContext();
    await signIn(context, stack.url, pro);
    const page = await context.newPage();
    await page.goto(`${stack.url}/worker/earnings`);
    await page.getByRole('button', { name: 'Set up payouts' }).click();
    await page.getByRole('heading', { name: 'Set up payouts (local Stripe)' }).waitFor();
    await page.getByRole('button', { name: 'Complete onboarding' }).click();
    await page.waitForURL(/\/worker\/earnings/);
    await toast(page, 'Payouts set up');
    return page;
  }

  /** The one offer a pro has, once dispatch made it. */
  async function offerOf(pro: Pro): Promise<{ id: string; workerCount: number }> {
    const offers = await eventually(
      () => asPro(stack.url, pro, 'GET', `/api/jobs/offers/${pro.id}`) as Promise<{ id: string; workerCount: number }[]>,
      (list) => list.length > 0,
    );
    return offers[0]!;
  }

  it('offers each pro their own job, verifies the work once, and pays one bill that pays each pro', async () => {
    // Prepare: both pros can be paid straight away.
    await Promise.all([setUpPayouts(ana), setUpPayouts(ben)]);

    // Act: the customer asks for two plumbers on the home page and sees the price for both first.
    const customerContext = await newContext({ geolocation: HOME, permissions: ['geolocation'] });
    const customer = await customerContext.newPage();
    const errors = collectErrors(customer);
    await customer.goto(`${stack.url}/`);
    await customer.getByRole('button', { name: 'Plumbing', exact: true }).click();
    await customer.getByRole('heading', { name: 'Request a professional' }).waitFor();
    await customer.getByLabel('Name', { exact: true }).fill('Morgan Hale');
    await customer.getByLabel('Email', { exact: true }).fill('morgan@example.com');
    await customer.getByLabel('Phone number', { exact: true }).fill('(415) 555-0188');
    await customer.getByLabel('Location', { exact: true }).fill('1 Dr Carlton B Goodlett Pl, San Francisco');
    // The address as typed, and the device's position with it (the geocoder is offline: the text stays).
    await customer.getByRole('button', { name: 'Use my location' }).click();
    await customer.getByText('We found your position but could not look up its address.', { exact: false }).waitFor();
    await customer.getByLabel('Description', { exact: true }).fill('Two bathrooms need new pipes before the weekend.');
    await customer.getByRole('combobox', { name: 'How many pros?' }).selectOption('2');
    await customer.getByTestId('request-estimate').getByText('Estimated total for 2 pros').waitFor({ timeout: 20_000 });
    expect(await seriousA11yViolations(customer)).toEqual([]);
    await customer.getByRole('button', { name: 'Submit Request' }).click();
    const card = customer.getByRole('region', { name: 'Your Requests' }).getByRole('article', { name: /^Request [A-Z0-9_-]{8}$/ });
    await withStackWarnings(() => card.waitFor());
    const number = ((await card.getAttribute('aria-label')) ?? '').replace(/^Request /, '');
    await card.getByRole('link', { name: `Track request ${number}` }).click();
    await customer.waitForURL(/\/track/);

    // Each pro is offered a job of the request of their own, "one of 2 pros", and accepts it.
    const [anaOffer, benOffer] = await Promise.all([offerOf(ana), offerOf(ben)]);
    expect(anaOffer.id).not.toBe(benOffer.id);
    expect([anaOffer.workerCount, benOffer.workerCount]).toEqual([2, 2]);
    await asPro(stack.url, ana, 'POST', `/api/jobs/accept/${anaOffer.id}`, {});
    await asPro(stack.url, ben, 'POST', `/api/jobs/accept/${benOffer.id}`, {});

    // The customer sees both pros in the crew, each with their own deadline.
    const crew = customer.getByRole('region', { name: 'Your crew' });
    await crew.getByText('Ana Ortiz').waitFor({ timeout: 20_000 });
    await crew.getByText('Ben Okafor').waitFor({ timeout: 20_000 });
    expect(await seriousA11yViolations(customer)).toEqual([]);

    // Each works their own job through to completed.
    await workToCompletion(stack.url, ana, anaOffer.id);
    await workToCompletion(stack.url, ben, benOffer.id);

    // The customer verifies the crew's work once.
    await customer.getByRole('button', { name: "Verify the crew's work" }).click({ timeout: 20_000 });
    const verify = customer.getByRole('dialog', { name: 'Verify Completed Work' });
    await verify.getByRole('button', { name: 'Approve Work' }).click();

    // Each pro invoices their own part: 2 h with $30 of materials, and 3 h.
    await eventually(
      () => Promise.all([asPro(stack.url, ana, 'GET', `/api/jobs/${anaOffer.id}`), asPro(stack.url, ben, 'GET', `/api/jobs/${benOffer.id}`)]) as Promise<{ canInvoice: boolean }[]>,
      (jobs) => jobs.every((job) => job.canInvoice),
    );
    await asPro(stack.url, ana, 'POST', `/api/jobs/${anaOffer.id}/invoice`, { laborHours: 2, materialsCost: 30 });
    await asPro(stack.url, ben, 'POST', `/api/jobs/${benOffer.id}/invoice`, { laborHours: 3 });

    // One bill, a line per pro: verified once, paid once.
    const bill = customer.getByRole('region', { name: 'Your bill' });
    await bill.getByText('Ana Ortiz').waitFor({ timeout: 20_000 });
    await bill.getByText('Ben Okafor').waitFor();
    expect(await seriousA11yViolations(customer)).toEqual([]);
    await bill.getByRole('button', { name: 'Verify bill' }).click();
    await bill.getByRole('button', { name: /^Pay \$/ }).waitFor();
    const leadId = trackedIdIn(customer.url());
    const verified = (await customer.evaluate(async (id) => (await fetch(`/api/requests/${id}/bill`)).json(), leadId)) as CrewBillView;
    expect(verified.status).toBe('to_pay');
    expect(verified.lines).toHaveLength(2);
    expect(verified.totalAmount).toBe(verified.subtotal + verified.transactionFee);
    const payLabel = payButtonLabel('pending', verified.totalAmount, false);
    await bill.getByRole('button', { name: payLabel }).click();
    await customer.waitForURL(/\/checkout\/cs_test_/);
    await customer.getByRole('button', { name: payLabel }).click();
    await customer.waitForURL(/\/payment-success\?session_id=cs_test_[^&]+&job=/);
    await customer.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 30_000 });

    // Assess: one charge for the bill; each pro's share went to their own account from it.
    const paid = (await customer.evaluate(async (id) => (await fetch(`/api/requests/${id}/bill`)).json(), leadId)) as CrewBillView;
    expect(paid.status).toBe('paid');
    const stripeState = () => JSON.parse(readFileSync(path.join(dataDir, 'stripe', 'state.json'), 'utf8')) as { transfers: Record<string, StoredTransfer>; charges: Record<string, { amount: number }> };
    const transfers = await eventually(
      async () => Object.values(stripeState().transfers).filter((t) => t.transfer_group === leadId),
      (list) => list.length === 2,
    );
    const shares = await Promise.all(
      [ana, ben].map(async (pro) => ((await asPro(stack.url, pro, 'GET', '/api/invoices')) as { workerShare: number; workerStripeAccountId: string | null }[])[0]!),
    );
    expect(transfers.map((t) => ({ amount: t.amount, destination: t.destination })).sort((a, b) => a.amount - b.amount)).toEqual(
      shares.map((s) => ({ amount: s.workerShare, destination: s.workerStripeAccountId })).sort((a, b) => a.amount - b.amount),
    );
    const charge = Object.values(stripeState().charges).find((c) => c.amount === paid.totalAmount);
    expect(charge).toBeDefined();
    expect(new Set(transfers.map((t) => t.source_transaction)).size).toBe(1);
    expect(errors).toEqual([]);
  });
});
