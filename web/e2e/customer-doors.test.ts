import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardFeeCents, estimateDefaults } from '../../shared/domain/estimate';
import { invoiceNumber, payButtonLabel } from '../../shared/domain/invoice';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { HOME, NEAR, OFFLINE_GEOCODER, collectErrors, toast, startJourneyStack, eventually, trackedIdIn } from './journey';
import { approvedPro, arriveAtJob, asPro, ownerCookie, type Pro, bringOnCall } from './people';

/**
 * One journey for the customer, whatever door they came in by: a booking at /book, a request from
 * the home page's form, a hire from the client dashboard. Each door leads to the same tracking page,
 * where the customer follows the job from its offer to the pro, approves the work, pays the invoice
 * on the local Stripe and rates the pro, clicking their way through: after opening the door's page
 * nobody types an address. The pro's side goes through the API; the worker journeys cover its screens.
 */

/** Long enough for the page's own polling (every 5 s) to catch up on a busy two-core machine. */
const SEEN = 20_000;
/** Each door walks a whole job, with several polls in between. */
const JOURNEY_MS = 300_000;


/** A pro on call a few blocks from the customer, alone in their trade so every offer of it is theirs. */
async function proOnCall(base: string, owner: string, fullName: string, trade: string): Promise<Pro> {
  const pro = await approvedPro(base, owner, fullName, [trade]);
  await bringOnCall(base, pro, NEAR);
  return pro;
}

/** Waits until the job is offered to the pro (the offer is what lets them accept it). */
async function offeredTo(base: string, pro: Pro, jobId: string): Promise<void> {
  await eventually(
    () => asPro(base, pro, 'GET', `/api/jobs/offers/${pro.id}`) as Promise<{ id: string }[]>,
    (offers) => offers.some((offer) => offer.id === jobId),
  );
}

/** What the top of the tracking page says now; waits until it says `headline`. */
async function trackingSays(page: Page, headline: string): Promise<void> {
  await page.getByTestId('tracking-now').getByText(headline, { exact: true }).waitFor({ timeout: SEEN });
}

/** The booking number at the head of the tracking page (under "Booking number"). */
function shownNumber(page: Page) {
  return page.getByRole('heading', { level: 2, name: /^[A-Z0-9_-]{8}$/ });
}

/** The timeline's steps, in order, with their state (done, current, upcoming). */
async function timelineStates(page: Page): Promise<{ step: string | null; state: string | null; current: string | null }[]> {
  const steps = page.getByRole('region', { name: 'Progress' }).getByRole('listitem');
  return steps.evaluateAll((items) =>
    items.map((item) => ({ step: item.getAttribute('data-step'), state: item.getAttribute('data-state'), current: item.getAttribute('aria-current') })),
  );
}

interface OnTrack {
  base: string;
  /** The customer's page, on /track for this job, the job still waiting for its pro. */
  page: Page;
  pro: Pro;
  proName: string;
  jobId: string;
  /** The number the customer was shown for it. */
  number: string;
  /** The door took an email address: the receipt is mailed there, and the payment page says so. */
  emailed?: boolean;
}

/**
 * The part every door shares, from the tracking page the door led to: offered, accepted, worked,
 * completed, approved, invoiced, paid on the local Stripe, rated, and back on the timeline, all done.
 */
async function followToTheEnd({ base, page, pro, proName, jobId, number, emailed = false }: OnTrack): Promise<void> {
  // Offered: the pro nearby is asked, and the customer is told so.
  await offeredTo(base, pro, jobId);
  await trackingSays(page, 'Asking 1 pro nearby');

  // The pro accepts, heads over, arrives and works; the customer sees each step as it happens.
  await asPro(base, pro, 'POST', `/api/jobs/accept/${jobId}`, {});
  await trackingSays(page, `${proName} accepted your request`);
  expect(await page.locator('li[aria-current="step"]').getAttribute('data-step')).toBe('assigned');
  await asPro(base, pro, 'POST', `/api/jobs/${jobId}/state`, { state: 'en_route' });
  await trackingSays(page, `${proName} is on the way`);
  // Every door's address here is typed (no position to prove an arrival against): the pro's Mark
  // Arrived asks the customer, who confirms it on the timeline.
  const arrival = await arriveAtJob(base, pro, jobId);
  expect(arrival).toMatchObject({ state: 'en_route', arrivalClaim: { reason: 'no-job-position' } });
  await trackingSays(page, `${proName} says they have arrived`);
  await page.getByRole('group', { name: 'Has your pro arrived?' }).getByRole('button', { name: 'Yes' }).click({ timeout: SEEN });
  await toast(page, 'Arrival confirmed');
  await trackingSays(page, `${proName} has arrived`);
  await asPro(base, pro, 'POST', `/api/jobs/${jobId}/state`, { state: 'in_progress' });
  await trackingSays(page, `${proName} is working on it`);

  // Completed: the customer is asked to verify the work, and approves it.
  await asPro(base, pro, 'POST', `/api/jobs/${jobId}/complete`, {});
  await trackingSays(page, 'Please verify the completed work');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Verify Work' }).click();
  const verify = page.getByRole('dialog', { name: 'Verify Completed Work' });
  await verify.getByRole('button', { name: 'Approve Work' }).click();
  await toast(page, 'Work approved');
  await trackingSays(page, 'Work approved');

  // Invoiced: 2 hours and $10 of materials, at the rate the pro accepted the job at.
  const invoice = (await asPro(base, pro, 'POST', `/api/jobs/${jobId}/invoice`, { laborHours: 2, materialsCost: 10 })) as {
    id: string;
    totalAmount: number;
    hourlyRate: number;
    rushFee: number;
    transactionFee: number;
  };
  // The estimate's arithmetic on the hours worked: labour + the rush fee it was sent with + materials, plus the card fee on that.
  const subtotal = 2 * invoice.hourlyRate + invoice.rushFee + 1000;
  expect(invoice.transactionFee).toBe(cardFeeCents(subtotal, estimateDefaults.cardFeePercent, estimateDefaults.cardFeeFixedCents));
  expect(invoice.totalAmount).toBe(subtotal + invoice.transactionFee);
  await trackingSays(page, 'Your invoice is ready');

  // Paid: approving the work was its verification, so the invoice only asks to be paid.
  await page.getByRole('button', { name: 'View & Pay Invoice' }).click();
  const invoiceDialog = page.getByRole('dialog', { name: `Invoice #${invoiceNumber(invoice.id)}` });
  const payLabel = payButtonLabel('pending', invoice.totalAmount, false);
  await invoiceDialog.getByRole('button', { name: payLabel }).waitFor({ timeout: SEEN });
  expect(await invoiceDialog.getByRole('button', { name: 'Verify Work' }).count()).toBe(0);
  await invoiceDialog.getByRole('button', { name: payLabel }).click();
  await page.waitForURL(/\/checkout\/cs_test_/, { timeout: SEEN });
  await page.getByRole('button', { name: payLabel }).click();
  await page.waitForURL(new RegExp(`/payment-success\\?session_id=cs_test_[^&]+&job=${jobId}$`), { timeout: SEEN });
  // The page asks the server whether the session paid the job before it says so.
  await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 30_000 });
  const receipt = page.getByTestId('payment-receipt');
  await receipt.getByText(invoiceNumber(invoice.id), { exact: true }).waitFor();
  await page
    .getByText(emailed ? 'We emailed your receipt to the address on your request; this page is your receipt too.' : 'This page is your receipt; Stripe may also email one if you gave it your address.')
    .waitFor();

  // Rated: five stars from the receipt.
  await page.getByRole('link', { name: 'Rate your pro' }).click();
  await page.waitForURL(new RegExp(`/rate/${jobId}$`));
  await page.getByRole('radio', { name: /Excellent/ }).click();
  await page.getByRole('button', { name: 'Submit Rating' }).click();
  await page.getByRole('heading', { name: 'Thank You!' }).waitFor({ timeout: SEEN });

  // The thank-you moves on to the home page by itself; the job's card leads back to its timeline.
  await page.waitForURL(`${base}/`, { timeout: SEEN });
  await page.getByRole('link', { name: `Track request ${number}` }).click({ timeout: SEEN });
  await page.waitForURL(`${base}/track#id=${jobId}`);
  await trackingSays(page, 'All done');
  await page.getByTestId('tracking-now').getByText('You rated this 5/5 (Excellent)').waitFor();
  await page.getByTestId('receipt').getByText(`#${invoiceNumber(invoice.id)}`).waitFor();
  // Every step done, the rating last and where the timeline ends.
  const states = await timelineStates(page);
  expect(states.map((s) => s.step)).toEqual(['sent', 'finding', 'assigned', 'on_the_way', 'arrived', 'working', 'completed', 'verified', 'invoiced', 'paid', 'rated']);
  expect(states.slice(0, -1).every((s) => s.state === 'done')).toBe(true);
  expect(states.at(-1)).toEqual({ step: 'rated', state: 'current', current: 'step' });
  expect(await page.getByRole('button', { name: /Verify Work|View & Pay Invoice/ }).count()).toBe(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
}

describe('one journey for the customer, whatever door they came in by', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-doors-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  // One pro per door, each alone in their trade: a door's job is offered to its pro only.
  let plumber: Pro;
  let electrician: Pro;
  let painter: Pro;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startJourneyStack(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    const owner = await ownerCookie(stack);
    plumber = await proOnCall(stack.url, owner, 'Riley Chen', 'plumbing');
    electrician = await proOnCall(stack.url, owner, 'Sam Okafor', 'electrical');
    painter = await proOnCall(stack.url, owner, 'Alex Brandt', 'painting');
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A new customer in their own browser, at home. */
  async function newCustomer(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({ geolocation: HOME, permissions: ['geolocation'] });
    const page = await context.newPage();
    return { context, page, errors: collectErrors(page) };
  }

  it(
    'takes a booking made at /book from its offer to paid and rated',
    async () => {
      // Prepare: the customer on the home page.
      const { context, page, errors } = await newCustomer();
      await page.goto(`${stack.url}/`);

      // Act: Book Now, the booking form, and the page goes on to the booking's tracking by itself.
      await page.getByRole('link', { name: 'Book Now', exact: true }).click();
      await page.getByRole('heading', { name: 'Book a Service' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Jordan Lee');
      await page.getByLabel('Phone', { exact: true }).fill('(415) 555-0177');
      await page.getByLabel('Address', { exact: true }).fill('500 Hayes Street, San Francisco');
      await page.getByLabel('Service category').selectOption('plumbing');
      await page.getByLabel('Details (optional)').fill('The bathroom tap drips all night.');
      await page.getByRole('button', { name: 'Submit booking' }).click();
      await page.waitForURL(/\/track#id=[A-Za-z0-9_-]{22}$/);
      const bookingId = trackedIdIn(page.url());
      const number = (await shownNumber(page).textContent())!.trim();
      // A booking's job has an id of its own: the pro acts on that one.
      const tracked = await context.request.get(`${stack.url}/api/track/${bookingId}`);
      expect(tracked.status()).toBe(200);
      const view = (await tracked.json()) as { id: string; viewer: string };
      expect(view.viewer).toBe('customer');
      // The customer's own browser shows their details.
      await page.getByText('500 Hayes Street, San Francisco').waitFor();

      // A link mailed before the id moved into the fragment still opens the booking, and the id
      // leaves the query for the fragment.
      await page.goto(`${stack.url}/track?id=${bookingId}`);
      await page.waitForURL(`${stack.url}/track#id=${bookingId}`);
      await expect.poll(async () => (await shownNumber(page).textContent())?.trim()).toBe(number);

      // Someone else holding the link follows the booking: the town, not who booked it or where.
      const stranger = await newCustomer();
      await stranger.page.goto(`${stack.url}/track#id=${bookingId}`);
      await stranger.page.getByTestId('viewer-note').getByText("The customer's name, contact details and street address show only in the browser that booked.").waitFor();
      await stranger.page.getByText('San Francisco', { exact: true }).waitFor();
      expect(await stranger.page.getByText(/Jordan Lee|500 Hayes|555-0177|bathroom tap/).count()).toBe(0);
      expect(stranger.errors).toEqual([]);
      await stranger.context.close();

      // Assess: the same journey as every door's, to the end.
      await followToTheEnd({ base: stack.url, page, pro: plumber, proName: 'Riley Chen', jobId: view.id, number });
      expect(errors).toEqual([]);
      await context.close();
    },
    JOURNEY_MS,
  );

  it(
    'takes a request sent from the home page from its offer to paid and rated',
    async () => {
      // Prepare: the customer on the home page.
      const { context, page, errors } = await newCustomer();
      await page.goto(`${stack.url}/`);

      // Act: the worker-type picker, the request form with a typed address (the geocoder is out of
      // reach, so it suggests nothing), then the request's Track link under Your Requests.
      await page.getByRole('button', { name: 'Electrical', exact: true }).click();
      await page.getByRole('heading', { name: 'Request a professional' }).waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Robin Diaz');
      await page.getByLabel('Email', { exact: true }).fill('robin@example.com');
      await page.getByLabel('Phone number', { exact: true }).fill('(415) 555-0123');
      expect(await page.getByLabel('Service', { exact: true }).inputValue()).toBe('Electrical');
      await page.getByLabel('Location', { exact: true }).fill('1 Dr Carlton B Goodlett Pl, San Francisco');
      await page.getByLabel('Description', { exact: true }).fill('Half the sockets in the kitchen stopped working.');
      await page.getByRole('button', { name: 'Submit Request' }).click();
      await page.getByText(/^Request submitted/).waitFor();
      const card = page.getByRole('region', { name: 'Your Requests' }).getByRole('article', { name: /^Request [A-Z0-9_-]{8}$/ });
      await card.getByText('Waiting for worker assignment').waitFor({ timeout: SEEN });
      const number = (await card.getAttribute('aria-label'))!.replace(/^Request /, '');
      await card.getByRole('link', { name: `Track request ${number}` }).click();
      await page.waitForURL(/\/track#id=[A-Za-z0-9_-]{22}$/);
      const jobId = trackedIdIn(page.url());
      expect(await shownNumber(page).textContent()).toBe(number);

      // Assess: the same journey as every door's, to the end.
      await followToTheEnd({ base: stack.url, page, pro: electrician, proName: 'Sam Okafor', jobId, number, emailed: true });
      expect(errors).toEqual([]);
      await context.close();
    },
    JOURNEY_MS,
  );

  it(
    'takes a hire made with Hire Now on the client dashboard from its offer to paid and rated',
    async () => {
      // Prepare: the customer on the client dashboard.
      const { context, page, errors } = await newCustomer();
      await page.goto(`${stack.url}/client-dashboard`);

      // Act: save the service address (the street typed, the position from the browser, since the
      // geocoder is out of reach), find the painter on call a few blocks away, shown by a band
      // only, hire them, then follow the hire's Track link.
      const filters = page.getByRole('search', { name: 'Filter workers' });
      await filters.getByLabel('Service address', { exact: true }).fill('1 Dr Carlton B Goodlett Pl, San Francisco');
      await filters.getByRole('button', { name: 'Use my location' }).click();
      await filters.getByRole('button', { name: 'Save address' }).click();
      await toast(page, 'Service address saved');
      await page.getByRole('button', { name: 'Find Available Workers' }).click();
      const painterCard = page.getByRole('article', { name: 'Alex Brandt', exact: true });
      await painterCard.getByText('Under 5 miles away', { exact: true }).waitFor({ timeout: SEEN });
      expect(await painterCard.getByText(/\d+(\.\d+)? (mi|km)\b|ETA/).count()).toBe(0);
      await painterCard.getByRole('button', { name: 'Hire Now' }).click({ timeout: SEEN });
      const hire = page.getByRole('dialog', { name: 'Hire Alex Brandt' });
      await hire.getByLabel('Name', { exact: true }).fill('Casey Morgan');
      await hire.getByLabel('Phone', { exact: true }).fill('(415) 555-0188');
      await hire.getByLabel('Email', { exact: true }).fill('casey@example.com');
      expect(await hire.getByLabel('Service', { exact: true }).inputValue()).toBe('Painting');
      await hire.getByLabel('Location', { exact: true }).fill('1 Dr Carlton B Goodlett Pl, San Francisco');
      await hire.getByLabel('Description', { exact: true }).fill('Repaint the hallway walls, about 30 square metres.');
      await hire.getByRole('button', { name: 'Send Job Request' }).click();
      await toast(page, 'Job Request Sent');
      const card = page.getByTestId('hire-card');
      await card.waitFor({ timeout: SEEN });
      const number = (await card.getAttribute('aria-label'))!.replace(/^Request /, '');
      expect(number).toMatch(/^[A-Z0-9_-]{8}$/);
      await card.getByRole('link', { name: `Track request ${number}` }).click();
      await page.waitForURL(/\/track#id=[A-Za-z0-9_-]{22}$/);
      const jobId = trackedIdIn(page.url());

      // Assess: the same journey as every door's, to the end (the hire is offered to the painter alone first).
      await followToTheEnd({ base: stack.url, page, pro: painter, proName: 'Alex Brandt', jobId, number, emailed: true });
      expect(errors).toEqual([]);
      await context.close();
    },
    JOURNEY_MS,
  );
});
