import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardFeeCents, estimateDefaults } from '../../shared/domain/estimate';
import { payButtonLabel } from '../../shared/domain/invoice';
import { formatMoney } from '../src/lib/money';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { HOME, NEAR, OFFLINE_GEOCODER, collectErrors, requestFromPage, toast } from './journey';
import { approvedPro, asPro, ownerCookie, signIn, type Pro, bringOnCall, workToCompletion } from './people';

/**
 * Money and trust, end to end through the production code and the local Stripe: a completed job is
 * approved by its customer, invoiced by the pro, verified and paid on the hosted checkout; the
 * webhook marks it paid on both sides; the pro's held share is released when they set up payouts;
 * the customer's review moves the pro's rating on the client dashboard.
 */
describe('a completed job is verified, invoiced, paid by card and reviewed', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-money-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  let pro: Pro;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStackProcess(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    pro = await approvedPro(stack.url, await ownerCookie(stack), 'Riley Chen', ['plumbing']);
    await bringOnCall(stack.url, pro, NEAR);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('takes the customer and the pro from completion through payment, payout and review', async () => {
    // Prepare: the customer's request (from their browser: it sets their cookie), accepted and
    // worked by the pro through the API (the dispatch journey covers those screens).
    const customerContext: BrowserContext = await browser.newContext({ geolocation: HOME, permissions: ['geolocation'] });
    const customer = await customerContext.newPage();
    const customerErrors = collectErrors(customer);
    await customer.goto(`${stack.url}/`);
    const jobId = await requestFromPage(customer, {
      name: 'Dana Whitfield',
      email: 'dana@example.com',
      phoneNumber: '(415) 555-0142',
      service: 'Plumbing',
      description: 'Water is leaking under the kitchen sink.',
    });
    await asPro(stack.url, pro, 'POST', `/api/jobs/accept/${jobId}`, {});
    await workToCompletion(stack.url, pro, jobId);

    // The customer is asked to verify the completed work, and approves it.
    await customer.reload();
    const card = customer.getByRole('article', { name: /^Request [A-Z0-9_-]{8}$/i });
    await card.getByText('Please verify the completed work').waitFor({ timeout: 15_000 });
    await card.getByRole('button', { name: 'Verify Work' }).click();
    const verify = customer.getByRole('dialog', { name: 'Verify Completed Work' });
    await verify.waitFor();
    expect(await seriousA11yViolations(customer)).toEqual([]);
    await verify.getByRole('button', { name: 'Approve Work' }).click();
    // What stays on the card (the toast saying so lasts 5 s, which a loaded machine can miss).
    await card.getByText('Work approved. Your professional is preparing the invoice.').waitFor({ timeout: 20_000 });

    // The pro invoices the approved job: 2.5 hours and $42.50 of materials.
    const workerContext = await browser.newContext();
    await signIn(workerContext, stack.url, pro);
    const worker = await workerContext.newPage();
    const workerErrors = collectErrors(worker);
    await worker.goto(`${stack.url}/worker/jobs/${jobId}`);
    await worker.getByRole('button', { name: 'Create Invoice' }).click();
    const invoiceForm = worker.getByRole('dialog', { name: 'Create Invoice' });
    await invoiceForm.getByLabel('Labour hours').fill('2.5');
    await invoiceForm.getByLabel('Materials ($)').fill('42.50');
    await invoiceForm.getByLabel('Notes').fill('Replaced the trap and a washer.');
    expect(await seriousA11yViolations(worker)).toEqual([]);
    await invoiceForm.getByRole('button', { name: 'Send Invoice' }).click();
    await toast(worker, 'Invoice sent');
    const [invoice] = (await asPro(stack.url, pro, 'GET', '/api/invoices')) as {
      id: string;
      invoiceNumber: string;
      totalAmount: number;
      hourlyRate: number;
      rushFee: number;
      transactionFee: number;
      workerShare: number;
    }[];
    // Labour + the rush fee the request was sent with + materials, plus the card fee on that.
    const subtotal = Math.round(2.5 * invoice!.hourlyRate) + invoice!.rushFee + 4250;
    expect(invoice!.transactionFee).toBe(cardFeeCents(subtotal, estimateDefaults.cardFeePercent, estimateDefaults.cardFeeFixedCents));
    expect(invoice!.totalAmount).toBe(subtotal + invoice!.transactionFee);

    // The customer opens the invoice (the list polls every 5 s) and pays: approving the work was
    // the verification, so there is nothing to verify a second time.
    await card.getByRole('button', { name: 'View & Pay Invoice' }).click({ timeout: 15_000 });
    const invoiceDialog = customer.getByRole('dialog', { name: `Invoice #${invoice!.invoiceNumber}` });
    await invoiceDialog.getByRole('button', { name: payButtonLabel('pending', invoice!.totalAmount, false) }).waitFor();
    expect(await invoiceDialog.getByRole('button', { name: 'Verify Work' }).count()).toBe(0);
    expect(await invoiceDialog.getByText('Pending Verification').count()).toBe(0);
    expect(await seriousA11yViolations(customer)).toEqual([]);
    const payLabel = payButtonLabel('pending', invoice!.totalAmount, false);
    await invoiceDialog.getByRole('button', { name: payLabel }).click();

    // The local Stripe's hosted checkout: pay. Its webhook reaches our handler before the redirect.
    await customer.waitForURL(/\/checkout\/cs_test_/);
    await customer.getByRole('button', { name: payLabel }).click();
    await customer.waitForURL(/\/payment-success\?session_id=cs_test_[^&]+&job=/);
    // The page asks the server whether this session paid the job before it says so.
    await customer.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 30_000 });
    const receipt = customer.getByTestId('payment-receipt');
    await receipt.getByText('Service fee (10%)').waitFor();
    await receipt.getByText('Riley Chen receives').waitFor();
    expect(await seriousA11yViolations(customer)).toEqual([]);

    // Paid on both sides: the customer's invoices and the pro's earnings (their share held: no payouts yet).
    await customer.goto(`${stack.url}/invoices`);
    await customer.getByRole('row', { name: new RegExp(invoice!.invoiceNumber) }).getByText('Paid', { exact: true }).waitFor();
    // The pro's /invoices (their dashboard's "Your invoices") lists it with the share they earn.
    await worker.goto(`${stack.url}/worker/dashboard`);
    await worker.getByRole('tab', { name: 'Jobs' }).click();
    await worker.getByRole('link', { name: 'Your invoices' }).click();
    await worker.getByRole('heading', { name: 'Your invoices' }).waitFor();
    const proRow = worker.getByRole('row', { name: new RegExp(invoice!.invoiceNumber) });
    await proRow.getByText('Paid', { exact: true }).waitFor();
    await proRow.getByText(formatMoney(invoice!.workerShare), { exact: true }).waitFor();
    expect(await seriousA11yViolations(worker)).toEqual([]);
    await worker.goto(`${stack.url}/worker/earnings`);
    await worker.getByText('Held until payouts are set up').waitFor();
    await worker.getByTestId('payout-status').getByText('Not set up').waitFor();

    // The pro sets up payouts on the local Stripe's onboarding; the held share goes to them.
    await worker.getByRole('button', { name: 'Set up payouts' }).click();
    await worker.getByRole('heading', { name: 'Set up payouts (local Stripe)' }).waitFor();
    await worker.getByRole('button', { name: 'Complete onboarding' }).click();
    await worker.waitForURL(/\/worker\/earnings/);
    await toast(worker, 'Payouts set up');
    await worker.getByTestId('payout-status').getByText('Payouts enabled').waitFor();
    await worker.getByText('Payout: Transferred').waitFor();
    expect(await seriousA11yViolations(worker)).toEqual([]);

    // The customer reviews the pro; the client dashboard shows the new rating.
    await customer.goto(`${stack.url}/`);
    await card.getByRole('button', { name: 'Review Riley Chen' }).click({ timeout: 15_000 });
    const review = customer.getByRole('dialog', { name: 'Review Riley Chen' });
    await review.getByLabel('Your review').fill('Quick, tidy and explained everything.');
    await review.getByRole('button', { name: 'Submit Review' }).click();
    await card.getByText(/You rated this 5\/5/).waitFor();
    await customer.goto(`${stack.url}/client-dashboard`);
    await customer.getByRole('button', { name: 'Find Available Workers' }).click();
    await customer.getByRole('article', { name: 'Riley Chen' }).getByText('Rated 5.0 out of 5 from 1 review').waitFor({ timeout: 15_000 });

    expect(customerErrors).toEqual([]);
    expect(workerErrors).toEqual([]);
    await Promise.all([customerContext.close(), workerContext.close()]);
  });
});
