import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceNumber } from '../../shared/domain/invoice';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { HOME, NEAR, OFFLINE_GEOCODER, collectErrors, eventually, holdScripts, mailsTo, requestFromPage, startJourneyStack, withStackWarnings } from './journey';
import { approvedPro, arriveAtJob, asPro, bringOnCall, ownerCookie, type Pro } from './people';

const SEEN = 20_000;
const JOURNEY_MS = 240_000;

/** A call the customer's own page makes (same origin, with its cookie), answering the JSON. */
async function fromCustomersPage(page: Page, method: string, url: string, body?: unknown): Promise<unknown> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const res = await fetch(url, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${await res.text()}`);
      return res.json();
    },
    { method, url, body },
  );
}

/** The link in a "Find my requests" mail. */
function linkIn(text: string | undefined): string {
  return /(http:\/\/[^\s]+\/find-my-requests\/open#token=[A-Za-z0-9_-]{43})/.exec(text ?? '')![1]!;
}

/**
 * Opens a mailed link as a person would, a fresh page load each time: from the link page itself,
 * going to the same path with only a fragment added would not load the page again.
 */
async function openLink(page: Page, link: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(link);
}

/** The ids of the requests the browser of `page` lists under Your Requests. */
async function listedIn(page: Page): Promise<string[]> {
  return ((await fromCustomersPage(page, 'GET', '/api/requests')) as { id: string }[]).map((r) => r.id).sort();
}

/**
 * "Find my requests", end to end: a customer books on one device with their email and the booking
 * is worked and invoiced; on a second device (another browser context: no cookie of the first) they
 * ask for a link, read it in the local SES's mail, open it there, confirm, and see the booking with
 * its invoice. And a link someone else asked for, opened in a browser with requests of its own,
 * asks first and never hands that browser's requests to the sender.
 */
describe('finding requests by a mailed link', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-find-requests-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  let pro: Pro;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startJourneyStack(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    pro = await approvedPro(stack.url, await ownerCookie(stack), 'Riley Chen', ['plumbing']);
    await bringOnCall(stack.url, pro, NEAR);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'books with an email on one browser, and opens the mailed link on another to see the booking and its invoice',
    async () => {
      // Prepare: the first device books at /book with an email address.
      const email = 'jordan.lee@example.com';
      const first = await browser.newContext({ geolocation: HOME, permissions: ['geolocation'] });
      const booking = await first.newPage();
      const firstErrors = collectErrors(booking);
      // As on a slow phone, the page's scripts arrive only after the person typed into the
      // prerendered form: what they typed is still what the booking sends.
      const releaseScripts = await holdScripts(booking);
      await booking.goto(`${stack.url}/book`, { waitUntil: 'commit' });
      await booking.getByRole('heading', { name: 'Book a Service' }).waitFor();
      await booking.getByLabel('Name', { exact: true }).fill('Jordan Lee');
      await booking.getByLabel('Phone', { exact: true }).fill('(415) 555-0177');
      await booking.getByLabel('Email (optional)').fill(email);
      await booking.getByLabel('Address', { exact: true }).fill('500 Hayes Street, San Francisco');
      releaseScripts();
      // The categories come once the app runs (the list is disabled until then).
      await booking.getByLabel('Service category').selectOption('plumbing');
      await booking.getByRole('button', { name: 'Submit booking' }).click();
      // A slow machine can take a while to store, price and offer the booking; if it is refused, say what the page said.
      await withStackWarnings(() =>
        booking.waitForURL(/\/track#id=[A-Za-z0-9_-]{22}$/, { timeout: 60_000 }).catch(async (error: Error) => {
          error.message += `\nThe page showed: ${(await booking.locator('body').innerText()).slice(0, 600)}`;
          throw error;
        }),
      );
      const bookingId = new URLSearchParams(new URL(booking.url()).hash.slice(1)).get('id')!;
      const { id: jobId } = (await fromCustomersPage(booking, 'GET', `/api/track/${bookingId}`)) as { id: string };

      // The booking's job is offered, worked and approved (the customer confirms the typed
      // address's arrival and approves the work from their page), then invoiced by the pro.
      await eventually(
        () => asPro(stack.url, pro, 'GET', `/api/jobs/offers/${pro.id}`) as Promise<{ id: string }[]>,
        (offers) => offers.some((offer) => offer.id === jobId),
      );
      await asPro(stack.url, pro, 'POST', `/api/jobs/accept/${jobId}`, {});
      await asPro(stack.url, pro, 'POST', `/api/jobs/${jobId}/state`, { state: 'en_route' });
      await arriveAtJob(stack.url, pro, jobId);
      await fromCustomersPage(booking, 'POST', `/api/requests/${jobId}/arrival`, { arrived: true });
      await asPro(stack.url, pro, 'POST', `/api/jobs/${jobId}/state`, { state: 'in_progress' });
      await asPro(stack.url, pro, 'POST', `/api/jobs/${jobId}/complete`, {});
      await fromCustomersPage(booking, 'POST', '/api/client-verification', {
        serviceRequestId: jobId,
        workerId: null,
        verificationType: 'work_verification',
        verificationStatus: 'approved',
        verificationNotes: null,
      });
      const invoice = (await asPro(stack.url, pro, 'POST', `/api/jobs/${jobId}/invoice`, { laborHours: 2, materialsCost: 10 })) as { id: string };

      // Act: a second device, which has never seen this customer, asks for the link from Your Requests.
      const second = await browser.newContext({ geolocation: HOME, permissions: ['geolocation'] });
      const page = await second.newPage();
      const secondErrors = collectErrors(page);
      await page.goto(`${stack.url}/`);
      await page.getByRole('link', { name: 'Find my requests' }).click();
      await page.getByRole('heading', { name: 'Find my requests' }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByLabel('Email address').fill(email);
      await page.getByRole('button', { name: 'Email me a link' }).click();
      await page.getByText("If we have requests made with that address, we've sent a link. It works for 15 minutes.").waitFor({ timeout: SEEN });

      // The mail, as the local SES kept it, and its link opened in the second device.
      const [mail] = await eventually(
        async () => (await mailsTo(dataDir, email)).filter((m) => m.subject === 'Your link to your Fixly requests'),
        (mails) => mails.length === 1,
      );
      const link = linkIn(mail!.text);
      await openLink(page, link);

      // The page asks first, naming the booking by its street and spending nothing: opened again, it asks again.
      const asked = page.getByRole('list', { name: `Requests made with ${email}` });
      await asked.getByText(/^500 Hayes Street, requested /).waitFor({ timeout: SEEN });
      expect(new URL(page.url()).hash).toBe('');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await openLink(page, link);
      await asked.getByText(new RegExp(`#${bookingId.slice(-8).toUpperCase()}$`)).waitFor({ timeout: SEEN });
      await page.getByRole('button', { name: 'Show these requests in this browser' }).click();

      // Assess: the booking is here, with its invoice.
      await page.getByText('This browser now has your requests').waitFor({ timeout: SEEN });
      const gathered = page.getByRole('list', { name: 'Your requests' });
      // A booking's job goes by the booking's number, the one its confirmation showed.
      await gathered.getByRole('link', { name: new RegExp(`#${bookingId.slice(-8).toUpperCase()}$`) }).waitFor();
      await gathered.getByText(/Invoice \$\d+\.\d{2}, to pay\./).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      // The customer's own pages in this browser: the invoice is theirs here now.
      await page.goto(`${stack.url}/invoices`);
      await page.getByRole('row', { name: new RegExp(invoiceNumber(invoice.id)) }).waitFor({ timeout: SEEN });

      // Opening the same link again says it is spent, and offers a new one.
      await openLink(page, link);
      await page.getByText('This link has been used or has expired. Links work once, for 15 minutes: send a new one.').waitFor({ timeout: SEEN });
      await page.getByRole('link', { name: 'Send a new link' }).waitFor();
      expect(firstErrors).toEqual([]);
      expect(secondErrors).toEqual([]);
      await first.close();
      await second.close();
    },
    JOURNEY_MS,
  );

  it(
    "asks before a link someone else asked for changes anything, and opened after all, leaves the browser's requests its own",
    async () => {
      // Prepare: the sender made a request with their address and asked for a link to it in their browser.
      const sendersAddress = 'sam.sender@example.com';
      const sender = await browser.newContext({ geolocation: HOME, permissions: ['geolocation'] });
      const sendersPage = await sender.newPage();
      await sendersPage.goto(`${stack.url}/find-my-requests`);
      const sendersRequest = await requestFromPage(sendersPage, {
        name: 'Sam Sender',
        email: sendersAddress,
        phoneNumber: '(415) 555-0101',
        service: 'Plumbing',
        description: 'A dripping tap in the kitchen',
      });
      await sendersPage.getByLabel('Email address').fill(sendersAddress);
      await sendersPage.getByRole('button', { name: 'Email me a link' }).click();
      await sendersPage.getByText("If we have requests made with that address, we've sent a link.", { exact: false }).waitFor({ timeout: SEEN });
      const [mail] = await eventually(
        async () => (await mailsTo(dataDir, sendersAddress)).filter((m) => m.subject === 'Your link to your Fixly requests'),
        (mails) => mails.length === 1,
      );
      const link = linkIn(mail!.text);
      // The person the link is sent to has a request of their own in their browser.
      const other = await browser.newContext({ geolocation: HOME, permissions: ['geolocation'] });
      const page = await other.newPage();
      const errors = collectErrors(page);
      await page.goto(`${stack.url}/`);
      const ownRequest = await requestFromPage(page, {
        name: 'Alex Other',
        email: 'alex.other@example.com',
        phoneNumber: '(415) 555-0199',
        service: 'Electrical',
        description: 'A light that flickers',
      });

      // Act: they open the sender's link, and decline.
      await openLink(page, link);
      const asked = page.getByRole('list', { name: `Requests made with ${sendersAddress}` });
      await asked.getByText(new RegExp(`#${sendersRequest.slice(-8).toUpperCase()}$`)).waitFor({ timeout: SEEN });
      await page.getByText('This link was asked for in another browser, so this one stays as it is', { exact: false }).waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);
      await page.getByRole('link', { name: 'Not mine: leave this browser as it is' }).click();

      // Assess: nothing changed: their own request is listed, the sender's is not, and the link is unspent.
      await page.getByRole('article', { name: `Request ${ownRequest.slice(-8).toUpperCase()}` }).waitFor({ timeout: SEEN });
      expect(await listedIn(page)).toEqual([ownRequest]);
      expect(await listedIn(sendersPage)).toEqual([sendersRequest]);

      // Act: opened again and confirmed after all, then a new request from this browser.
      await openLink(page, link);
      await page.getByRole('button', { name: 'Show these requests once' }).click();
      const shown = page.getByRole('list', { name: 'Requests to follow' });
      await shown.getByRole('link', { name: new RegExp(`#${sendersRequest.slice(-8).toUpperCase()}$`) }).waitFor({ timeout: SEEN });
      const laterRequest = await requestFromPage(page, {
        name: 'Alex Other',
        email: 'alex.other@example.com',
        phoneNumber: '(415) 555-0199',
        service: 'Electrical',
        description: 'A second light that flickers',
      });

      // Assess: this browser keeps its own requests, old and new; the sender's browser sees none of them.
      expect(await listedIn(page)).toEqual([ownRequest, laterRequest].sort());
      expect(await listedIn(sendersPage)).toEqual([sendersRequest]);
      await openLink(page, link);
      await page.getByText('This link has been used or has expired. Links work once, for 15 minutes: send a new one.').waitFor({ timeout: SEEN });
      expect(errors).toEqual([]);
      await sender.close();
      await other.close();
    },
    JOURNEY_MS,
  );
});
