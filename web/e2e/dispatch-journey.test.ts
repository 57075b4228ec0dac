import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { FARTHER, HOME, NEAR, OFFLINE_GEOCODER, collectErrors, requestFromPage, toast, eventually } from './journey';
import { approvedPro, asPro, ownerCookie, signIn, type Pro } from './people';


describe('a home-page request is dispatched, accepted and worked to completion', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-dispatch-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  let pro: Pro;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStackProcess(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    pro = await approvedPro(stack.url, await ownerCookie(stack), 'Sam Okafor', ['plumbing']);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('offers the request to the clocked-in pro nearby, who accepts and works it while the customer follows', async () => {
    // The pro clocks in (sharing their position) and goes on call.
    const workerContext = await browser.newContext({ geolocation: NEAR, permissions: ['geolocation'] });
    await signIn(workerContext, stack.url, pro);
    const worker = await workerContext.newPage();
    const workerErrors = collectErrors(worker);
    await worker.goto(`${stack.url}/worker/dashboard`);
    await worker.getByRole('heading', { name: 'Worker Dashboard' }).waitFor();
    const located = worker.waitForResponse((r) => r.url().endsWith('/api/workers/location') && r.status() === 204);
    await worker.getByRole('button', { name: 'Clock In' }).click();
    await toast(worker, 'Clocked In');
    await located;
    const availability = worker.getByRole('switch', { name: 'Available for jobs' });
    if ((await availability.getAttribute('aria-checked')) !== 'true') {
      await availability.click();
      await toast(worker, 'Now Available');
    }
    await worker.getByRole('tab', { name: 'Jobs' }).click();

    // The customer asks for a plumber from the home page, with their position.
    const customerContext = await browser.newContext({ geolocation: HOME, permissions: ['geolocation'] });
    const customer = await customerContext.newPage();
    const customerErrors = collectErrors(customer);
    await customer.goto(`${stack.url}/`);
    await customer.getByRole('button', { name: 'Plumbing', exact: true }).click();
    await customer.getByLabel('Name').fill('Dana Whitfield');
    await customer.getByLabel('Email').fill('dana@example.com');
    await customer.getByLabel('Phone number').fill('(415) 555-0142');
    // The geocoder is out of reach: the position is kept for dispatch, the address is typed.
    await customer.getByRole('button', { name: 'Use my location' }).click();
    await customer.getByText('We found your position but could not look up its address. Please type your street address.').waitFor();
    expect(await customer.getByLabel('Location').inputValue()).toBe('');
    await customer.getByLabel('Location').fill('1 Dr Carlton B Goodlett Pl, San Francisco');
    await customer.getByLabel('Description').fill('Water is leaking under the kitchen sink.');
    await customer.getByRole('button', { name: 'Submit Request' }).click();
    await customer.getByText(/^Request submitted/).waitFor();
    const card = customer.getByRole('article', { name: /^Request [A-Z0-9_-]{8}$/i });
    await card.getByText('Pending', { exact: true }).waitFor();
    await card.getByText('Waiting for worker assignment').waitFor();
    expect(await seriousA11yViolations(customer)).toEqual([]);

    // The offer reaches the pro (offers poll every 10 s), with its countdown; the pro accepts.
    const offer = worker.getByRole('article', { name: 'Offer: Plumbing' });
    await offer.waitFor({ timeout: 20_000 });
    // Deciding needs the trade, the town and the work; who the customer is and their street come with accepting.
    await offer.getByText('San Francisco', { exact: true }).waitFor();
    await offer.getByText("The street and the customer's name and contact details show once you accept.").waitFor();
    await offer.getByText('Water is leaking under the kitchen sink.').waitFor();
    expect(await offer.getByText(/Dana Whitfield|Goodlett/).count()).toBe(0);
    expect(await seriousA11yViolations(worker)).toEqual([]);
    await offer.getByRole('button', { name: 'Accept' }).click();
    await toast(worker, 'Job Accepted!');
    await worker.waitForURL(/\/worker\/jobs\/[A-Za-z0-9_-]{22}$/);
    await worker.getByText('Dana Whitfield').first().waitFor();
    await worker.getByRole('link', { name: /Open in Maps/ }).waitFor();
    expect(await seriousA11yViolations(worker)).toEqual([]);

    // The customer sees the assignment (the list polls every 5 s).
    await card.getByText('In Progress', { exact: true }).waitFor({ timeout: 15_000 });
    await card.getByText('Sam Okafor').waitFor();

    // The pro drives over: from here their device's fix is the customer's address, which is what
    // lets Mark Arrived count. En route, arrived, started, completed: each step only when it is the next one.
    await workerContext.setGeolocation(HOME);
    for (const [step, next] of [
      ['Mark En Route', 'Mark Arrived'],
      ['Mark Arrived', 'Start Work'],
      ['Start Work', 'Complete Job'],
    ] as const) {
      await worker.getByRole('button', { name: step }).click();
      await worker.getByRole('button', { name: next }).waitFor();
    }
    await worker.getByRole('button', { name: 'Complete Job' }).click();
    await toast(worker, 'Job Completed!');
    await worker.waitForURL(/\/worker\/dashboard$/, { timeout: 10_000 });

    await card.getByText('Completed', { exact: true }).waitFor({ timeout: 15_000 });
    await card.getByText('Service completed', { exact: true }).waitFor();

    // The job counts in the pro's earnings.
    await worker.goto(`${stack.url}/worker/earnings`);
    await worker.getByRole('heading', { name: /Earnings/ }).first().waitFor();
    await worker.getByText('Plumbing').first().waitFor();
    expect(await worker.getByText('No Completed Jobs Yet').count()).toBe(0);
    expect(await seriousA11yViolations(worker)).toEqual([]);

    expect(workerErrors).toEqual([]);
    expect(customerErrors).toEqual([]);
    await Promise.all([workerContext.close(), customerContext.close()]);
  });
});

describe('offers that expire and a pro who arrives late', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-dispatch-timers-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  let owner: string;

  beforeAll(async () => {
    // Short windows by configuration, so the timers fire within the test.
    const env = { ...OFFLINE_GEOCODER, OFFER_SECONDS: '10', ARRIVAL_GRACE_SECONDS: '3', MAX_OFFERS: '3' };
    [stack, browser] = await Promise.all([startStackProcess(dataDir, env), launchBrowser()]);
    owner = await ownerCookie(stack);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('tells the customer on /track that no worker is available once every offer of a booking expired', async () => {
    // Prepare: one painter on call, who will not answer.
    const painter = await approvedPro(stack.url, owner, 'Alex Brandt', ['painting']);
    await asPro(stack.url, painter, 'POST', '/api/workers/clock-in');
    await asPro(stack.url, painter, 'POST', '/api/workers/availability', { isAvailable: true });
    const page = await browser.newPage();
    const errors = collectErrors(page);

    // Act: a booking from /book.
    await page.goto(`${stack.url}/book?category=painting`);
    await page.getByRole('heading', { name: 'Book a Service' }).waitFor();
    await page.getByLabel(/name/i).fill('Jordan Lee');
    await page.getByLabel(/phone/i).fill('(415) 555-0177');
    await page.getByLabel(/address/i).fill('500 Hayes Street, San Francisco');
    await page.getByRole('button', { name: /book|submit|request/i }).click();
    await page.waitForURL(/\/track#id=[A-Za-z0-9_-]{22}$/);

    // Assess: the painter was offered it, the offer ran out, and /track says so.
    const offers = (await asPro(stack.url, painter, 'GET', `/api/jobs/offers/${painter.id}`)) as { offerExpiresAt: string }[];
    expect(offers).toHaveLength(1);
    // The timeline says it, and so may a live toast at the same moment.
    await page.getByText('No worker available', { exact: true }).first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('booking-status').getAttribute('data-status')).toBe('new');
    expect(await asPro(stack.url, painter, 'GET', `/api/jobs/offers/${painter.id}`)).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('takes the job from a pro who does not arrive in time, gives a strike, and offers it to the next pro', async () => {
    // Prepare: the nearest electrician (who will be late) and another one farther away.
    const late = await approvedPro(stack.url, owner, 'Casey Late', ['electrical']);
    const backup = await approvedPro(stack.url, owner, 'Morgan Ready', ['electrical']);
    for (const [pro, at] of [[late, NEAR], [backup, FARTHER]] as const) {
      await asPro(stack.url, pro, 'POST', '/api/workers/clock-in');
      await asPro(stack.url, pro, 'POST', '/api/workers/availability', { isAvailable: true });
      await asPro(stack.url, pro, 'POST', '/api/workers/location', at);
    }
    const customer = await browser.newPage();
    const customerErrors = collectErrors(customer);
    await customer.goto(`${stack.url}/`);
    // The request as the home page's form sends it, from the customer's browser (it sets their cookie).
    await requestFromPage(customer, {
      name: 'Robin Diaz',
      email: 'robin@example.com',
      phoneNumber: '(415) 555-0123',
      service: 'Electrical',
      description: 'Half the sockets in the kitchen stopped working.',
    });

    // Act: the nearest pro accepts at once, then does not arrive within the (3 s) grace.
    const offers = await eventually(
      () => asPro(stack.url, late, 'GET', `/api/jobs/offers/${late.id}`) as Promise<{ id: string }[]>,
      (list) => list.length === 1,
    );
    await asPro(stack.url, late, 'POST', `/api/jobs/accept/${offers[0]!.id}`, { workerId: late.id });

    // Assess: the job is offered to the next pro; the late pro has a strike; the customer is told.
    const next = await eventually(
      () => asPro(stack.url, backup, 'GET', `/api/jobs/offers/${backup.id}`) as Promise<{ id: string }[]>,
      (list) => list.length === 1,
    );
    expect(next[0]!.id).toBe(offers[0]!.id);
    const workerContext = await browser.newContext();
    await signIn(workerContext, stack.url, late);
    const worker = await workerContext.newPage();
    await worker.goto(`${stack.url}/worker/dashboard`);
    await worker.getByTestId('worker-strikes').waitFor();
    expect(await worker.getByTestId('worker-strikes').textContent()).toContain('1');
    await worker.goto(`${stack.url}/worker/jobs/${offers[0]!.id}`);
    await worker.getByText('Job Not Found').waitFor();

    const card = customer.getByRole('article', { name: /^Request / });
    await card.getByText(/previous professional could not arrive in time/).waitFor({ timeout: 15_000 });
    await card.getByText('Pending', { exact: true }).waitFor();
    expect(customerErrors).toEqual([]);
    await workerContext.close();
  });
});
