import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';
import { createRequire } from 'node:module';
import { launchBrowser } from './browser';
import { HOME, NEAR, OFFLINE_GEOCODER, requestFromPage } from './journey';
import { approvedPro, asPro, ownerCookie, signIn, type Pro, bringOnCall, workToCompletion } from './people';

/**
 * Every route of the app (the `patterns` in web/src/lib/paths.ts), at a phone's width and a
 * desktop's: it shows its screen (its h1) or lands where the app redirects it, with no console
 * error, no page error and no serious or critical axe finding. The ids the parameterised routes
 * need are real, made through the API: a booking, a service, a customer's completed, approved and
 * invoiced job; the signed-in routes are visited as the customer (cookie),
 * an approved pro (local storage) and the owner (session cookie).
 */

type Who = 'visitor' | 'customer' | 'pro' | 'owner';

interface RouteCheck {
  /** What the browser opens. */
  url: string;
  who: Who;
  /** The pathname it must end on (a redirect's target); the url's own by default. */
  landsOn?: string;
  /** The screen's h1. */
  heading: string | RegExp;
  /** Further states of the screen to check the same way (tabs, a dialog, a list shown on demand). */
  states?: readonly { name: string; reach: (page: Page) => Promise<void> }[];
}

/** A tab of the screen, chosen. */
const tab = (name: string) => ({
  name: `the ${name} tab`,
  reach: async (page: Page) => {
    await page.getByRole('tab', { name }).click();
    await page.getByRole('tab', { name, selected: true }).waitFor();
  },
});

const widths = [
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
] as const;

/** The routes, given the ids made for them. */
function routeTable(ids: {
  service: string;
  serviceName: string;
  booking: string;
  job: string;
  jobService: string;
  proName: string;
  companyApplication: string;
}): RouteCheck[] {
  return [
    {
      url: '/',
      who: 'visitor',
      heading: /.+/,
      states: [
        {
          // On a phone the links are behind the menu button.
          name: 'the navigation menu',
          reach: async (page) => {
            const menu = page.getByRole('button', { name: 'Open menu' });
            if (await menu.isVisible()) await menu.click();
            await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Apply as Company' }).waitFor();
          },
        },
      ],
    },
    { url: '/', who: 'customer', heading: /.+/ },
    { url: '/services', who: 'visitor', heading: 'Our Categories' },
    { url: `/services/${ids.service}`, who: 'visitor', heading: ids.serviceName },
    { url: '/book', who: 'visitor', heading: 'Book a Service' },
    { url: `/book?category=${ids.service}`, who: 'visitor', heading: 'Book a Service' },
    { url: '/track', who: 'visitor', heading: 'Track Your Booking' },
    { url: `/track#id=${ids.booking}`, who: 'visitor', heading: 'Track Your Booking' },
    { url: '/contact', who: 'visitor', heading: 'Contact Us' },
    { url: '/apply/company', who: 'visitor', heading: 'Company Application' },
    { url: `/apply/company/status/${ids.companyApplication}`, who: 'visitor', heading: 'Under review' },
    { url: '/apply/worker', who: 'visitor', heading: 'Apply to be a Pro' },
    { url: '/apply/contractor', who: 'visitor', landsOn: '/apply/worker', heading: 'Apply to be a Pro' },
    { url: '/worker/apply', who: 'visitor', heading: 'Apply to be a Pro' },
    { url: '/worker/login', who: 'visitor', heading: 'Worker Login' },
    { url: '/worker/signup', who: 'visitor', heading: 'Create Worker Account' },
    { url: '/forgot-password', who: 'visitor', heading: 'Forgot Password' },
    // Without a link's secret in the fragment, the page says the link is incomplete and offers a new one.
    { url: '/reset-password', who: 'visitor', heading: 'Choose a New Password' },
    { url: '/find-my-requests', who: 'visitor', heading: 'Find my requests' },
    // Without a link's secret in the fragment, the page says the link cannot be opened and offers a new one.
    { url: '/find-my-requests/open', who: 'visitor', heading: 'Your requests' },
    // Signed out, the worker area sends the visitor to the login (no worker stored).
    { url: '/worker/dashboard', who: 'visitor', landsOn: '/worker/login', heading: 'Worker Login' },
    { url: '/worker/profile', who: 'visitor', landsOn: '/worker/login', heading: 'Worker Login' },
    {
      url: '/worker/dashboard',
      who: 'pro',
      heading: 'Worker Dashboard',
      states: [
        tab('Jobs'),
        tab('Documents'),
        tab('Strikes'),
        {
          // Signed in, the nav bar has the bell; its panel holds the push control.
          name: 'the notification panel',
          reach: async (page) => {
            await page.getByRole('button', { name: /^Notifications/ }).click();
            await page.getByRole('dialog', { name: 'Notifications' }).waitFor();
          },
        },
      ],
    },
    { url: '/worker-dashboard', who: 'pro', heading: 'Worker Dashboard' },
    { url: '/worker/profile', who: 'pro', heading: 'My Profile' },
    { url: `/worker/jobs/${ids.job}`, who: 'pro', heading: ids.jobService },
    { url: '/worker/earnings', who: 'pro', heading: 'Earnings' },
    { url: '/worker-type', who: 'pro', heading: 'Choose Your Worker Type' },
    // The owner exists, so setup is no longer needed: it redirects to /admin/login.
    { url: '/admin/setup', who: 'visitor', landsOn: '/admin/login', heading: 'Owner Access' },
    { url: '/admin/login', who: 'visitor', heading: 'Owner Access' },
    { url: '/admin', who: 'visitor', landsOn: '/admin/login', heading: 'Owner Access' },
    { url: '/admin', who: 'owner', heading: 'Owner Dashboard', states: [tab('Workers'), tab('Jobs'), tab('Analytics'), tab('Documents')] },
    { url: '/account/change-password', who: 'owner', heading: 'Change Password' },
    { url: `/admin/jobs/${ids.job}`, who: 'owner', heading: ids.jobService },
    { url: `/admin/jobs/${ids.job}`, who: 'visitor', landsOn: '/admin/login', heading: 'Owner Access' },
    // Signed out, the session check fails, so it goes to /.
    { url: '/account/change-password', who: 'visitor', landsOn: '/', heading: /.+/ },
    { url: `/rate/${ids.job}`, who: 'customer', heading: 'Rate Your Service' },
    { url: '/customer', who: 'customer', heading: 'Client Dashboard' },
    {
      url: '/client-dashboard',
      who: 'customer',
      heading: 'Client Dashboard',
      states: [
        {
          name: 'the available workers',
          reach: async (page) => {
            const find = page.getByRole('button', { name: 'Find Available Workers' });
            if (await find.isEnabled()) await find.click();
            await page.getByRole('article', { name: ids.proName }).waitFor({ timeout: 15_000 });
          },
        },
      ],
    },
    {
      url: '/invoices',
      who: 'customer',
      heading: 'Invoices',
      states: [
        {
          name: 'the invoice dialog',
          reach: async (page) => {
            await page.getByRole('button', { name: 'View' }).first().click();
            await page.getByRole('dialog').getByRole('button').first().waitFor();
          },
        },
      ],
    },
    { url: '/invoices', who: 'owner', heading: 'Invoices' },
    { url: '/invoices', who: 'visitor', heading: 'Invoices' },
    { url: '/insurance', who: 'visitor', heading: /claim/i },
    { url: '/workers', who: 'visitor', heading: /tradespeople/i },
    { url: '/contractors', who: 'visitor', landsOn: '/workers', heading: /tradespeople/i },
    { url: '/download', who: 'visitor', heading: /download|install/i },
    // The job was never paid: the page asks the server and says so (after its ~20 s of asking).
    { url: `/payment-success?session_id=cs_test_every_route&job=${ids.job}`, who: 'customer', heading: 'We could not confirm this payment' },
    { url: `/payment/success?session_id=cs_test_every_route&job=${ids.job}`, who: 'customer', heading: 'We could not confirm this payment' },
    { url: `/payment-cancelled?job=${ids.job}`, who: 'customer', heading: 'Payment Cancelled' },
    { url: `/payment/cancel?job=${ids.job}`, who: 'customer', heading: 'Payment Cancelled' },
    { url: '/login', who: 'visitor', landsOn: '/admin/login', heading: 'Owner Access' },
    { url: '/register', who: 'visitor', landsOn: '/worker/apply', heading: 'Apply to be a Pro' },
    { url: '/dashboard', who: 'visitor', landsOn: '/admin/login', heading: 'Owner Access' },
    { url: '/no-such-page', who: 'visitor', heading: '404 Page Not Found' },
  ];
}

/** A move inside the single-page app, as its router makes one on a link. */
async function navigateInApp(page: Page, url: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, url);
}

/**
 * Waits until the screen has fetched what it shows first (lists, statuses, its code): no new
 * request for 500 ms, at most 5 s (screens that poll never stop for long).
 */
async function quiet(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const started = performance.now();
        let count = performance.getEntriesByType('resource').length;
        let since = performance.now();
        const timer = setInterval(() => {
          const now = performance.getEntriesByType('resource').length;
          if (now !== count) {
            count = now;
            since = performance.now();
          }
          if (performance.now() - since >= 500 || performance.now() - started >= 5000) {
            clearInterval(timer);
            resolve();
          }
        }, 100);
      }),
  );
}

/**
 * axe's serious and critical findings (with where, so a failure says what to fix) once the page is at rest: the pointer off every control and every finite
 * animation done (a toast sliding in is half transparent on its way).
 */
async function violationsAtRest(page: Page): Promise<string[]> {
  await page.mouse.move(0, 0);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource });
  return page.evaluate(async () => {
    type Result = { id: string; impact: string; nodes: { target: string[]; failureSummary?: string }[] };
    type Axe = { run(ctx: Document, opts: object): Promise<{ violations: Result[] }> };
    const { violations } = await (window as unknown as { axe: Axe }).axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}`));
  });
}

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

describe('every route renders, accessibly and without errors, on a phone and a desktop', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-every-route-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  let pro: Pro;
  let owner: string;
  let customerState: Awaited<ReturnType<BrowserContext['storageState']>>;
  let routes: RouteCheck[];

  beforeAll(async () => {
    // `npm run dev`: the check that the home page loads its heavy parts on demand names them by
    // the source modules the dev server serves one by one (a production build hashes them into chunks).
    [stack, browser] = await Promise.all([startStackProcess(dataDir, OFFLINE_GEOCODER, ['--dev']), launchBrowser()]);
    const base = stack.url;
    owner = await ownerCookie(stack);
    pro = await approvedPro(base, owner, 'Avery Brooks', ['plumbing']);
    await bringOnCall(base, pro, NEAR);

    const services = (await (await fetch(`${base}/api/services`)).json()) as { slug: string; name: string }[];
    const service = services.find((s) => s.slug === 'plumbing') ?? services[0]!;
    const bookingRes = await fetch(`${base}/api/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Jordan Lee', phone: '(415) 555-0199', address: '1 Market St, San Francisco', category: service.slug, details: 'A dripping tap.' }),
    });
    if (bookingRes.status !== 201) throw new Error(`booking answered ${bookingRes.status}: ${await bookingRes.text()}`);
    const booking = (await bookingRes.json()) as { id: string };
    const companyRes = await fetch(`${base}/api/company-applications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        companyName: 'Harborview Property Group',
        businessType: 'Property Management',
        contactPersonName: 'Morgan Ellis',
        phoneNumber: '(510) 555-0188',
        emailAddress: 'morgan@harborview.example',
        companyAddress: '120 Harbor Street, Oakland, CA',
        workerTypesNeeded: ['Plumbing'],
        typicalWorkerCount: '1-5',
        averageProjectDuration: '1 day',
        agreementAccepted: true,
      }),
    });
    if (companyRes.status !== 201) throw new Error(`company application answered ${companyRes.status}: ${await companyRes.text()}`);
    const companyApplication = (await companyRes.json()) as { id: string };

    // The customer's request, from their browser (it sets their cookie): worked, completed,
    // approved by them and invoiced by the pro, so every customer screen has something to show.
    const customerContext = await browser.newContext({ geolocation: HOME, permissions: ['geolocation'] });
    const customer = await customerContext.newPage();
    await customer.goto(`${base}/`);
    const job = await requestFromPage(customer, {
      name: 'Dana Whitfield',
      email: 'dana@example.com',
      phoneNumber: '(415) 555-0142',
      service: 'Plumbing',
      description: 'Water is leaking under the kitchen sink.',
    });
    await asPro(base, pro, 'POST', `/api/jobs/accept/${job}`, {});
    await workToCompletion(base, pro, job);
    await customer.evaluate(async (serviceRequestId) => {
      const res = await fetch('/api/client-verification', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ serviceRequestId, verificationType: 'work_verification', verificationStatus: 'approved' }),
      });
      if (!res.ok) throw new Error(`verification answered ${res.status}`);
    }, job);
    await asPro(base, pro, 'POST', `/api/jobs/${job}/invoice`, { laborHours: 2, materialsCost: 12.5, notes: 'Replaced a washer.' });
    customerState = await customerContext.storageState();
    await customerContext.close();

    routes = routeTable({
      service: service.slug,
      serviceName: service.name,
      booking: booking.id,
      job,
      jobService: 'Plumbing',
      proName: 'Avery Brooks',
      companyApplication: companyApplication.id,
    });
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function contextFor(who: Who, width: (typeof widths)[number], extra: BrowserContextOptions = {}): Promise<BrowserContext> {
    const options = { viewport: width.viewport, isMobile: width.isMobile, hasTouch: width.hasTouch, geolocation: HOME, ...extra };
    const context = await browser.newContext(who === 'customer' ? { ...options, storageState: customerState } : options);
    // The page's own count of what it fetched (quiet()); the browser's default keeps only 250.
    await context.addInitScript(() => performance.setResourceTimingBufferSize(1_000_000));
    if (who === 'pro') await signIn(context, stack.url, pro);
    if (who === 'owner') {
      const [name, value] = owner.split('=') as [string, string];
      await context.addCookies([{ name, value, url: stack.url }]);
    }
    return context;
  }

  /**
   * The lists' other states with the texts people read: each call answered 500 (the browser logs that
   * one response, nothing else may be logged) and the lists of someone who has nothing yet.
   */
  it('every list says when its call fails, and when it is empty', async () => {
    const failures: { who: Who; url: string; call: RegExp; tab?: string; text: string | RegExp }[] = [
      { who: 'visitor', url: '/services', call: /^\/api\/services$/, text: 'We couldn’t load the categories' },
      { who: 'visitor', url: '/services/plumbing', call: /^\/api\/services\/plumbing$/, text: 'Service Not Found' },
      { who: 'visitor', url: '/book', call: /^\/api\/services$/, text: 'We couldn’t load the categories.' },
      { who: 'visitor', url: '/track#id=missing', call: /^\/api\/track\//, text: 'Booking Not Found' },
      { who: 'visitor', url: '/contact', call: /^\/api\/config$/, text: 'We couldn’t load our support address just now.' },
      { who: 'customer', url: '/', call: /^\/api\/requests$/, text: 'Could not load your requests' },
      { who: 'customer', url: '/client-dashboard', call: /^\/api\/requests$/, text: "We couldn't load your hires." },
      { who: 'customer', url: '/invoices', call: /^\/api\/invoices$/, text: 'Could not load the invoices' },
      { who: 'pro', url: '/worker/dashboard', tab: 'Jobs', call: /^\/api\/jobs\/offers\//, text: 'Failed to fetch job offers' },
      { who: 'pro', url: '/worker/dashboard', tab: 'Jobs', call: /^\/api\/jobs\/worker\//, text: 'Failed to fetch active jobs' },
      { who: 'pro', url: '/worker/dashboard', tab: 'Strikes', call: /^\/api\/workers\/strikes$/, text: 'Failed to fetch your strikes' },
      { who: 'pro', url: '/worker/earnings', call: /^\/api\/jobs\/completed\//, text: 'Failed to fetch completed jobs' },
      { who: 'pro', url: '/worker/profile', call: /^\/api\/workers\/me$/, text: 'Failed to fetch worker profile.' },
      { who: 'owner', url: '/admin', call: /^\/api\/admin\/workers\/pending$/, text: 'Failed to fetch pending applications' },
      { who: 'owner', url: '/admin', tab: 'Workers', call: /^\/api\/admin\/workers\/all$/, text: 'Failed to fetch workers' },
      { who: 'owner', url: '/admin', tab: 'Jobs', call: /^\/api\/admin\/jobs\/all$/, text: 'Failed to fetch jobs' },
    ];
    const empties: { url: string; text: string }[] = [
      { url: '/', text: 'No requests yet. Requests you send from this browser show here.' },
      { url: '/client-dashboard', text: 'No hires yet. Press Hire Now on a professional and your request shows here, with its progress.' },
      { url: '/invoices', text: 'No invoices found' },
    ];
    const desktop = widths[1];
    const problems: string[] = [];
    const check = async (who: Who, label: string, visit: (page: Page) => Promise<void>, call?: RegExp) => {
      // No service worker: it would answer some calls before the page's interception sees them.
      const context = await contextFor(who, desktop, { serviceWorkers: 'block' });
      const page = await context.newPage();
      const seen: string[] = [];
      page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const path = new URL(message.location().url || 'about:blank', stack.url).pathname;
        if (call?.test(path) && /status of 500/.test(message.text())) return;
        if (who === 'visitor' && path === '/api/auth/me' && /status of 401/.test(message.text())) return;
        seen.push(`console error: ${message.text()} (${message.location().url})`);
      });
      if (call) {
        await page.route(
          (url) => call.test(url.pathname),
          (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: 'Something went wrong' }) }),
        );
      }
      try {
        await visit(page);
        await quiet(page);
        for (const id of await violationsAtRest(page)) problems.push(`${label}: axe ${id}`);
      } catch (error) {
        problems.push(`${label}: ${(error as Error).message.split('\n')[0]}`);
      }
      problems.push(...seen.map((problem) => `${label}: ${problem}`));
      await context.close();
    };
    for (const failure of failures) {
      await check(failure.who, `${failure.url}${failure.tab ? ` (${failure.tab})` : ''} as ${failure.who}, ${failure.call} failing`, async (page) => {
        await page.goto(`${stack.url}${failure.url}`);
        if (failure.tab) await tab(failure.tab).reach(page);
        await page.getByText(failure.text, { exact: true }).first().waitFor({ timeout: 30_000 });
      }, failure.call);
    }
    for (const empty of empties) {
      await check('visitor', `${empty.url} with nothing yet`, async (page) => {
        await page.goto(`${stack.url}${empty.url}`);
        if (empty.url === '/client-dashboard') await page.getByRole('button', { name: 'Find Available Workers' }).waitFor();
        await page.getByText(empty.text, { exact: true }).first().waitFor({ timeout: 30_000 });
      });
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('a first visit to the home page loads only what it shows; the live corner comes with a request', async () => {
    // Prepare: a visitor this stack has never seen, and what their browser asks for.
    const context = await contextFor('visitor', widths[0]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const modules: string[] = [];
    page.on('request', (request) => modules.push(new URL(request.url()).pathname));
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(new URL(socket.url()).pathname));
    const onDemand = /\/(realtime-ui|toaster|request-form-panel|request-cards)\.tsx$/;

    // Act: the home page, left to settle.
    await page.goto(`${stack.url}/`);
    await page.getByText('No requests yet. Requests you send from this browser show here.', { exact: true }).waitFor();
    await page.getByRole('button', { name: /Plumbing/ }).waitFor();
    await page.waitForTimeout(2_500);

    // Assess: nothing for a socket, a toast, the form or request cards; no socket opened.
    expect(modules.filter((m) => onDemand.test(m))).toEqual([]);
    expect(sockets.filter((s) => s === '/ws')).toEqual([]);

    // Act: the visitor starts choosing, then sends a request.
    await page.getByRole('button', { name: /Plumbing/ }).hover();
    await expect.poll(() => modules.some((m) => m.endsWith('/request-form-panel.tsx'))).toBe(true);
    await requestFromPage(page, { name: 'Ada Park', email: 'ada@example.com', phoneNumber: '(415) 555-0100', service: 'Plumbing', description: 'The kitchen tap drips all night.' });
    await page.reload();

    // Assess: their card, and the live corner connected for them.
    await page.getByRole('article', { name: /^Request / }).waitFor();
    await page.getByTestId('realtime-status').and(page.locator('[data-status="connected"]')).waitFor({ timeout: 30_000 });
    expect(modules.some((m) => m.endsWith('/request-cards.tsx'))).toBe(true);
    expect(modules.some((m) => m.endsWith('/realtime-ui.tsx'))).toBe(true);
    expect(sockets).toContain('/ws');
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const width of widths) {
    it(`every route at ${width.name} width (${width.viewport.width}x${width.viewport.height})`, async () => {
      const pages = new Map<Who, { context: BrowserContext; page: Page; problems: string[]; loaded: boolean }>();
      const problems: string[] = [];
      for (const route of routes) {
        let open = pages.get(route.who);
        if (!open) {
          const context = await contextFor(route.who, width);
          const page = await context.newPage();
          const seen: string[] = [];
          page.on('pageerror', (error) => seen.push(`page error: ${error.message}`));
          page.on('console', (message) => {
            // Signed out, the owner screens' session check (GET /api/auth/me) is answered 401, by
            // design; the browser logs every 4xx response. That answer is how they know.
            if (route.who === 'visitor' && /status of 401/.test(message.text()) && new URL(message.location().url).pathname === '/api/auth/me') return;
            if (message.type() === 'error') seen.push(`console error: ${message.text()} (${message.location().url})`);
          });
          open = { context, page, problems: seen, loaded: false };
          pages.set(route.who, open);
        }
        const { page, problems: seen } = open;
        seen.length = 0;
        const label = `${route.url} as ${route.who}`;
        try {
          // The first route of each person loads the app; the rest move inside it as a link does
          // (reloading the whole app for each would take minutes on two cores).
          if (open.loaded) await navigateInApp(page, route.url);
          else await page.goto(`${stack.url}${route.url}`);
          open.loaded = true;
          const landsOn = route.landsOn ?? new URL(route.url, stack.url).pathname;
          await page.waitForURL((url) => url.pathname === landsOn, { timeout: 10_000 });
          await page.getByRole('heading', { level: 1, name: route.heading }).first().waitFor({ timeout: 30_000 });
          await quiet(page);
          for (const id of await violationsAtRest(page)) problems.push(`${label}: axe ${id}`);
          for (const state of route.states ?? []) {
            await state.reach(page);
            await quiet(page);
            for (const id of await violationsAtRest(page)) problems.push(`${label}, ${state.name}: axe ${id}`);
          }
          // A dialog or panel left open would cover the next screen.
          if (await page.getByRole('dialog').count()) await page.keyboard.press('Escape');
        } catch (error) {
          problems.push(`${label}: ${(error as Error).message.split('\n')[0]}`);
        }
        for (const problem of seen) problems.push(`${label}: ${problem}`);
      }
      await Promise.all([...pages.values()].map(({ context }) => context.close()));
      expect(problems).toEqual([]);
    }, 900_000);
  }
});
