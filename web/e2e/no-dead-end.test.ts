import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { HOME, NEAR, OFFLINE_GEOCODER, collectErrors, requestFromPage, startJourneyStack, toast, eventually } from './journey';
import { approvedPro, asPro, ownerCookie, type Pro, bringOnCall, workToCompletion } from './people';

/**
 * No screen leaves the customer stuck: a search that found nobody can be tried again or picks up a
 * pro who comes on call, an unaccepted request can be withdrawn, a booking can be found again with
 * its number and phone, a payment left or forged leads back to the invoice, and a failed call or an
 * unreachable geocoder says what to do next rather than the browser's own words.
 */


/** The ids of the jobs offered to the pro right now. */
async function offeredTo(base: string, pro: Pro): Promise<string[]> {
  return ((await asPro(base, pro, 'GET', `/api/jobs/offers/${pro.id}`)) as { id: string }[]).map((offer) => offer.id);
}

/** The polls and live events of /track can take a while on a busy machine. */
const LIVE = { timeout: 30_000 };

/** What the top of the tracking page says the job is doing now. */
const nowPanel = (page: Page) => page.getByTestId('tracking-now');

/**
 * Opens the home page's request form for `service`. The page is prerendered: a press that lands
 * before React has taken the page over does nothing, so it is pressed again until the form opens.
 */
async function openRequestForm(page: Page, service: string): Promise<void> {
  const form = page.getByRole('heading', { name: 'Request a professional' });
  const deadline = Date.now() + 30_000;
  while (!(await form.isVisible())) {
    if (Date.now() > deadline) throw new Error(`The request form for ${service} did not open`);
    const choice = page.getByRole('button', { name: service, exact: true });
    if (await choice.isVisible()) await choice.click();
    await form.waitFor({ timeout: 3_000 }).catch(() => undefined);
  }
}

/**
 * Fills /book. The page is prerendered and text typed before React takes it over is lost, so the
 * category goes first: its list is enabled only once the live page has loaded the categories.
 */
async function fillBooking(page: Page, booking: { name: string; phone: string; address: string; category: string }): Promise<void> {
  await page.getByRole('heading', { name: 'Book a Service' }).waitFor();
  await page.getByLabel('Service category').selectOption(booking.category, LIVE);
  await page.getByLabel('Name').fill(booking.name);
  await page.getByLabel('Phone', { exact: true }).fill(booking.phone);
  await page.getByLabel('Address').fill(booking.address);
}

describe('no dead ends for the customer', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-no-dead-end-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  let owner: string;
  const contexts: BrowserContext[] = [];

  /** A fresh browser profile (no cookie), closed with the file. */
  async function newContext(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
    const context = await browser.newContext(options);
    contexts.push(context);
    return context;
  }

  beforeAll(async () => {
    // The geocoder is out of reach for the whole file: one test is about exactly that, and no
    // other one looks an address up.
    [stack, browser] = await Promise.all([startJourneyStack(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    owner = await ownerCookie(stack);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('offers the same request again when the customer presses Try again after nobody was found', async () => {
    // Prepare: no plumber is on call, so the request finds nobody at once.
    const context = await newContext();
    const customer = await context.newPage();
    const errors = collectErrors(customer);
    await customer.goto(`${stack.url}/`);
    const jobId = await requestFromPage(customer, {
      name: 'Dana Whitfield',
      email: 'dana@example.com',
      phoneNumber: '(415) 555-0142',
      service: 'Plumbing',
      description: 'Water is leaking under the kitchen sink.',
    });
    await customer.goto(`${stack.url}/track#id=${jobId}`);
    await nowPanel(customer).getByText('No worker available').waitFor(LIVE);
    await customer.getByRole('button', { name: 'Try again', exact: true }).waitFor();
    expect(await seriousA11yViolations(customer)).toEqual([]);

    // A plumber comes on call without sharing a position: the automatic re-offer is only for pros
    // known to be near the job, so only the customer's Try again can reach this one.
    const plumber = await approvedPro(stack.url, owner, 'Pat Rivera', ['plumbing']);
    await asPro(stack.url, plumber, 'POST', '/api/workers/clock-in');
    await asPro(stack.url, plumber, 'POST', '/api/workers/availability', { isAvailable: true });
    expect(await offeredTo(stack.url, plumber)).toEqual([]);
    await customer.reload();
    await nowPanel(customer).getByText('No worker available').waitFor(LIVE);

    // Act: the customer tries again, retyping nothing.
    await customer.getByRole('button', { name: 'Try again', exact: true }).click();

    // Assess: the page shows the search again and the plumber is offered the very same job.
    await toast(customer, 'Searching again');
    await nowPanel(customer).getByText(/^(Asking 1 pro nearby|Looking for a pro nearby)$/).waitFor(LIVE);
    expect(await customer.getByRole('button', { name: 'Try again', exact: true }).count()).toBe(0);
    expect(await nowPanel(customer).getByText('No worker available').count()).toBe(0);
    await eventually(() => offeredTo(stack.url, plumber), (ids) => ids.includes(jobId));
    await nowPanel(customer).getByText('Asking 1 pro nearby').waitFor(LIVE);
    expect(errors).toEqual([]);
  });

  it('offers a request that found nobody to a pro who comes on call nearby, without the customer doing anything', async () => {
    // Prepare: no electrician is on call; the request finds nobody.
    const context = await newContext();
    const customer = await context.newPage();
    const errors = collectErrors(customer);
    await customer.goto(`${stack.url}/`);
    const jobId = await requestFromPage(customer, {
      name: 'Robin Diaz',
      email: 'robin@example.com',
      phoneNumber: '(415) 555-0123',
      service: 'Electrical',
      description: 'Half the sockets in the kitchen stopped working.',
    });
    await customer.goto(`${stack.url}/track#id=${jobId}`);
    await nowPanel(customer).getByText('No worker available').waitFor(LIVE);
    const note = customer.getByText(/^For the next \d+ minutes?, a pro who comes on call nearby gets it automatically\.$/);
    await note.waitFor();

    // Act: an electrician a few blocks away comes on call as the dashboard does it (clock in, go
    // available, share the position): the last call finds them available and located.
    const electrician = await approvedPro(stack.url, owner, 'Casey Morgan', ['electrical']);
    await bringOnCall(stack.url, electrician, NEAR);

    // Assess: the page shows the search again by itself, the electrician has the offer, and their
    // accept reaches the customer.
    await nowPanel(customer).getByText(/^(Asking 1 pro nearby|Looking for a pro nearby)$/).waitFor(LIVE);
    expect(await offeredTo(stack.url, electrician)).toContain(jobId);
    expect(await note.count()).toBe(0);
    await asPro(stack.url, electrician, 'POST', `/api/jobs/accept/${jobId}`, {});
    await nowPanel(customer).getByText('Casey Morgan accepted your request').waitFor(LIVE);
    expect(await customer.getByRole('button', { name: 'Cancel request', exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('withdraws a request no pro has accepted yet, taking the offer back from the pro', async () => {
    // Prepare: a painter on call nearby holds the offer of the customer's request.
    const painter = await approvedPro(stack.url, owner, 'Alex Brandt', ['painting']);
    await bringOnCall(stack.url, painter, NEAR);
    const context = await newContext();
    const customer = await context.newPage();
    const errors = collectErrors(customer);
    await customer.goto(`${stack.url}/`);
    const jobId = await requestFromPage(customer, {
      name: 'Jordan Lee',
      email: 'jordan@example.com',
      phoneNumber: '(415) 555-0177',
      service: 'Painting',
      description: 'Two bedroom walls need a fresh coat.',
    });
    expect(await offeredTo(stack.url, painter)).toContain(jobId);
    await customer.goto(`${stack.url}/track#id=${jobId}`);
    await nowPanel(customer).getByText('Asking 1 pro nearby').waitFor(LIVE);

    // Act: the customer cancels, and confirms.
    await customer.getByRole('button', { name: 'Cancel request', exact: true }).click();
    const confirm = customer.getByRole('group', { name: 'Cancel this request?' });
    await confirm.waitFor();
    expect(await seriousA11yViolations(customer)).toEqual([]);
    await confirm.getByRole('button', { name: 'Yes, cancel request' }).click();

    // Assess: the page says it is cancelled, and the painter can no longer take it.
    await nowPanel(customer).getByText('This booking was cancelled.').waitFor(LIVE);
    await customer.getByTestId('booking-status').getByText('Cancelled', { exact: true }).waitFor();
    expect(await customer.getByTestId('booking-status').getAttribute('data-status')).toBe('cancelled');
    expect(await customer.getByRole('button', { name: 'Cancel request', exact: true }).count()).toBe(0);
    expect(await offeredTo(stack.url, painter)).not.toContain(jobId);
    await expect(asPro(stack.url, painter, 'POST', `/api/jobs/accept/${jobId}`, {})).rejects.toThrow(/answered 409/);
    expect(errors).toEqual([]);
  });

  it('finds a booking again from another browser by its number and phone, and refuses a wrong pair', async () => {
    // Prepare: a booking from /book; its tracking page shows the number to keep.
    const bookingContext = await newContext();
    const booker = await bookingContext.newPage();
    const bookerErrors = collectErrors(booker);
    await booker.goto(`${stack.url}/book`);
    await fillBooking(booker, { name: 'Sky Anders', phone: '(415) 555-0142', address: '500 Hayes Street, San Francisco', category: 'construction' });
    await booker.getByRole('button', { name: 'Submit booking' }).click();
    await booker.waitForURL(/\/track#id=[A-Za-z0-9_-]+$/, LIVE);
    const numberHeading = booker.getByRole('heading', { level: 2, name: /^[A-Z0-9_-]{8}$/ });
    await numberHeading.waitFor(LIVE);
    const number = (await numberHeading.textContent())!.trim();

    // Act: in a browser without the booking's cookie, a wrong phone first.
    const elsewhere = await newContext();
    const visitor = await elsewhere.newPage();
    const visitorErrors = collectErrors(visitor);
    await visitor.goto(`${stack.url}/track`);
    await visitor.getByRole('heading', { name: 'Find it with your phone number' }).waitFor();
    await visitor.getByLabel('Booking number').fill(number);
    await visitor.getByLabel('Phone number', { exact: true }).fill('(415) 555-0199');
    await visitor.getByRole('button', { name: 'Find Booking' }).click();

    // Assess: the wrong pair is told apart from nothing else.
    const refused = visitor.getByRole('alert').filter({ hasText: 'Booking Not Found' });
    await refused.waitFor(LIVE);
    await refused.getByText('The booking ID you entered could not be found.').waitFor();
    expect(visitor.url()).toBe(`${stack.url}/track`);

    // Act: the number typed into the id box is taken to the number-and-phone form; the phone is
    // written another way than at booking.
    await visitor.goto(`${stack.url}/track`);
    await visitor.getByLabel('Enter Booking ID').fill(number);
    await visitor.getByRole('button', { name: 'Check Status' }).click();
    await visitor.getByText('That is a booking number: enter the phone number you booked with to find it.').waitFor();
    expect(await visitor.getByLabel('Booking number').inputValue()).toBe(number);
    expect(await seriousA11yViolations(visitor)).toEqual([]);
    await visitor.getByLabel('Phone number', { exact: true }).fill('415.555.0142');
    await visitor.getByRole('button', { name: 'Find Booking' }).click();

    // Assess: the booking, followed but not acted on from this browser, which is shown its town
    // but not who booked it or where.
    await visitor.waitForURL(/\/track#id=[A-Za-z0-9_-]+$/, LIVE);
    await visitor.getByRole('heading', { level: 2, name: number }).waitFor(LIVE);
    await visitor.getByText("The customer's name, contact details and street address show only in the browser that booked. To verify, pay or rate, open this page there.").waitFor();
    await visitor.getByText('San Francisco', { exact: true }).waitFor();
    expect(await visitor.getByText(/Sky Anders|500 Hayes/).count()).toBe(0);
    expect(await visitor.getByRole('button', { name: 'Cancel request', exact: true }).count()).toBe(0);
    expect(await visitor.getByRole('button', { name: 'Try again', exact: true }).count()).toBe(0);
    expect(await seriousA11yViolations(visitor)).toEqual([]);
    expect(bookerErrors).toEqual([]);
    expect(visitorErrors).toEqual([]);
  });

  it('brings the customer back to the open invoice when they cancel on the checkout page', async () => {
    // Prepare: a handyman on call nearby takes the customer's request and works it (by API).
    const handyman = await approvedPro(stack.url, owner, 'Riley Chen', ['handyman']);
    await bringOnCall(stack.url, handyman, NEAR);
    const context = await newContext();
    const customer = await context.newPage();
    const errors = collectErrors(customer);
    await customer.goto(`${stack.url}/`);
    const jobId = await requestFromPage(customer, {
      name: 'Morgan Price',
      email: 'morgan@example.com',
      phoneNumber: '(415) 555-0188',
      service: 'Other',
      description: 'A cabinet door hangs off its hinge.',
    });
    await asPro(stack.url, handyman, 'POST', `/api/jobs/accept/${jobId}`, {});
    await workToCompletion(stack.url, handyman, jobId);

    // The customer approves the work on /track; the handyman invoices it.
    await customer.goto(`${stack.url}/track#id=${jobId}`);
    await customer.getByRole('button', { name: 'Verify Work' }).click(LIVE);
    const verify = customer.getByRole('dialog', { name: 'Verify Completed Work' });
    await verify.getByRole('button', { name: 'Approve Work' }).click();
    await toast(customer, 'Work approved');
    await asPro(stack.url, handyman, 'POST', `/api/jobs/${jobId}/invoice`, { laborHours: 1.5, materialsCost: 12.5 });

    // Act: the customer opens the invoice, goes to pay, and cancels on the checkout page.
    await customer.getByRole('button', { name: 'View & Pay Invoice' }).click(LIVE);
    const invoice = customer.getByRole('dialog', { name: /^Invoice #/ });
    await invoice.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click(LIVE);
    await customer.waitForURL(/\/checkout\/cs_test_/, LIVE);
    await customer.getByRole('button', { name: 'Cancel', exact: true }).click();

    // Assess: the cancelled page says nothing was charged and leads back to this job's invoice.
    await customer.waitForURL(`${stack.url}/payment-cancelled?job=${jobId}`, LIVE);
    await customer.getByRole('heading', { name: 'Payment Cancelled' }).waitFor();
    await customer.getByTestId('redirect-countdown').getByText(/Taking you to your invoice in/).waitFor();
    expect(await seriousA11yViolations(customer)).toEqual([]);
    await customer.getByRole('link', { name: 'Back to your invoice' }).click();
    await customer.waitForURL(`${stack.url}/track#id=${jobId}`, LIVE);
    await nowPanel(customer).getByText('Your invoice is ready').waitFor(LIVE);
    await customer.getByRole('button', { name: 'View & Pay Invoice' }).click(LIVE);
    const payAgain = customer.getByRole('dialog', { name: /^Invoice #/ }).getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ });
    await payAgain.waitFor(LIVE);
    expect(await payAgain.isEnabled()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('never calls a forged or jobless success link a payment, and leads back to the invoice or home', async () => {
    // Prepare: a real job with nothing paid, and a page that remembers whether success was ever said.
    const context = await newContext();
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { seenTexts: string[] }).seenTexts = seen;
      const look = () => {
        const text = document.body?.textContent ?? '';
        for (const words of ['Payment Successful!', 'emailed']) if (text.includes(words) && !seen.includes(words)) seen.push(words);
      };
      new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${stack.url}/`);
    const jobId = await requestFromPage(page, {
      name: 'Avery Stone',
      email: 'avery@example.com',
      phoneNumber: '(415) 555-0166',
      service: 'Cleaning',
      description: 'Deep clean of a one-bedroom flat.',
    });
    const seenTexts = () => page.evaluate(() => (window as unknown as { seenTexts: string[] }).seenTexts);

    // Act: a success link with a made-up session for that job.
    await page.goto(`${stack.url}/payment-success?session_id=cs_test_forged&job=${jobId}`);

    // Assess: it asks the server for a while, then says it could not confirm and leads to the invoice.
    await page.getByRole('heading', { name: 'We could not confirm this payment' }).waitFor({ timeout: 40_000 });
    expect(await page.getByRole('link', { name: 'Back to your invoice' }).getAttribute('href')).toBe(`/track#id=${jobId}`);
    await page.getByRole('button', { name: 'Check again' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await seenTexts()).toEqual([]);

    // Act and assess: a job id that names no job, and a link naming no job at all.
    await page.goto(`${stack.url}/payment-success?job=abc`);
    await page.getByRole('heading', { name: 'We could not confirm this payment' }).waitFor({ timeout: 40_000 });
    expect(await page.getByRole('link', { name: 'Back to your invoice' }).getAttribute('href')).toBe('/track#id=abc');
    expect(await seenTexts()).toEqual([]);
    await page.goto(`${stack.url}/payment-success?session_id=cs_test_forged`);
    await page.getByRole('heading', { name: 'We could not confirm this payment' }).waitFor({ timeout: 40_000 });
    expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    expect(await seenTexts()).toEqual([]);
    expect(await page.content()).not.toContain('Payment Successful!');
    expect(errors).toEqual([]);
  });

  it('tells the customer to try again, in its own words, when the request or booking cannot reach the server', async () => {
    // Prepare: the home page's request form, filled in.
    const context = await newContext();
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${stack.url}/`);
    await openRequestForm(page, 'Cleaning');
    await page.getByLabel('Name').fill('Quinn Harper');
    await page.getByLabel('Email').fill('quinn@example.com');
    await page.getByLabel('Phone number').fill('(415) 555-0111');
    await page.getByLabel('Location').fill('1 Dr Carlton B Goodlett Pl, San Francisco');
    await page.getByLabel('Description').fill('The oven needs a thorough clean.');

    // Act: the connection drops for requests, then the customer submits.
    await context.route('**/api/requests', (route) => route.abort('failed'));
    await page.getByRole('button', { name: 'Submit Request' }).click();

    // Assess: the form's own words, never the browser's.
    await toast(page, 'Error submitting request');
    await page.getByText('Please try again later.', { exact: true }).first().waitFor();
    expect(await page.getByText(/^Request submitted/).count()).toBe(0);
    expect(await page.content()).not.toContain('Failed to fetch');

    // Prepare: the booking form, filled in while the server still answers (its categories load).
    await page.goto(`${stack.url}/book`);
    await fillBooking(page, { name: 'Quinn Harper', phone: '(415) 555-0111', address: '500 Hayes Street, San Francisco', category: 'cleaning' });

    // Act: the connection drops for bookings, then the customer submits.
    await context.route('**/api/bookings', (route) => route.abort('failed'));
    await page.getByRole('button', { name: 'Submit booking' }).click();

    // Assess: the booking form's own words; the customer stays on the form to send it again.
    await toast(page, 'Booking failed');
    await page.getByText('Please try again', { exact: true }).first().waitFor();
    expect(page.url()).toBe(`${stack.url}/book`);
    expect(await page.content()).not.toContain('Failed to fetch');
    expect(errors).toEqual([]);
  });

  it('keeps the position found when its address cannot be looked up, under the address the customer types', async () => {
    // Prepare: the home page's request form, in a browser that shares its position.
    const context = await newContext({ geolocation: HOME, permissions: ['geolocation'] });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${stack.url}/`);
    await openRequestForm(page, 'Carpentry');
    await page.getByLabel('Name').fill('Sam Ortega');
    await page.getByLabel('Email').fill('sam@example.com');
    await page.getByLabel('Phone number').fill('(415) 555-0155');

    // Act: the customer asks for their location; the geocoder is out of reach.
    await page.getByRole('button', { name: 'Use my location' }).click();

    // Assess: they are asked to type the address, and the box holds no coordinates as text.
    await page.getByText('We found your position but could not look up its address. Please type your street address.').waitFor(LIVE);
    expect(await page.getByLabel('Location').inputValue()).toBe('');
    expect(await page.content()).not.toContain('37.779300, -122.419300');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // Act: they type the address and send the request.
    await page.getByLabel('Location').fill('1 Dr Carlton B Goodlett Pl, San Francisco');
    await page.getByLabel('Description').fill('A door frame split and needs rebuilding.');
    await page.getByRole('button', { name: 'Submit Request' }).click();

    // Assess: the card shows the typed address, and the request kept the position the browser gave.
    await page.getByText(/^Request submitted/).waitFor(LIVE);
    const card = page.getByRole('article', { name: /^Request [A-Z0-9_-]{8}$/i });
    await card.getByText('1 Dr Carlton B Goodlett Pl, San Francisco', { exact: true }).waitFor(LIVE);
    const requests = await page.evaluate(async () => (await fetch('/api/requests')).json() as Promise<{ location: string; clientLatitude: number; clientLongitude: number; gpsEnabled: boolean }[]>);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.location).toBe('1 Dr Carlton B Goodlett Pl, San Francisco');
    expect(requests[0]!.clientLatitude).toBeCloseTo(HOME.latitude, 4);
    expect(requests[0]!.clientLongitude).toBeCloseTo(HOME.longitude, 4);
    expect(requests[0]!.gpsEnabled).toBe(true);
    expect(errors).toEqual([]);
  });
});
