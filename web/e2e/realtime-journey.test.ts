import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { HOME, NEAR, OFFLINE_GEOCODER, collectErrors, requestFromPage, toast } from './journey';
import { approvedPro, asPro, ownerCookie, signIn, type Pro } from './people';

/**
 * Two browsers, one customer and one pro, see each other through the local /ws: the pro's offer
 * arrives live, the customer hears the pro accept, follows the pro's shared position and hears
 * "1 minute away", all without waiting for a poll.
 */
describe('the customer and the pro see each other live through /ws', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-realtime-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  let pro: Pro;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStackProcess(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    pro = await approvedPro(stack.url, await ownerCookie(stack), 'Jamie Ortiz', ['electrical']);
    await asPro(stack.url, pro, 'POST', '/api/workers/clock-in');
    await asPro(stack.url, pro, 'POST', '/api/workers/availability', { isAvailable: true });
    await asPro(stack.url, pro, 'POST', '/api/workers/location', NEAR);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers the offer, the acceptance, the live position and "1 minute away" between the two pages', async () => {
    // Prepare: the pro on their dashboard, connected.
    const workerContext = await browser.newContext({ geolocation: NEAR, permissions: ['geolocation'] });
    await signIn(workerContext, stack.url, pro);
    const worker = await workerContext.newPage();
    const workerErrors = collectErrors(worker);
    await worker.goto(`${stack.url}/worker/dashboard`);
    await worker.getByText('Real-time', { exact: true }).waitFor({ timeout: 20_000 });

    // The customer asks for an electrician from their browser (their cookie), then opens the home page.
    const customerContext = await browser.newContext({ geolocation: HOME, permissions: ['geolocation'] });
    const customer = await customerContext.newPage();
    const customerErrors = collectErrors(customer);
    // The frames the customer's page receives, to count what one fix of the pro costs in posts.
    const customerFrames: { event: string; data: Record<string, unknown> }[] = [];
    customer.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string') customerFrames.push(JSON.parse(payload) as { event: string; data: Record<string, unknown> });
      }),
    );
    await customer.goto(`${stack.url}/`);
    const jobId = await requestFromPage(customer, {
      name: 'Dana Whitfield',
      email: 'dana@example.com',
      phoneNumber: '(415) 555-0142',
      service: 'Electrical',
      description: 'The kitchen lights flicker and then go out.',
    });

    // Act / Assess: the offer reaches the pro as a live notification (no 10 s poll needed).
    await toast(worker, 'New job offer');
    await customer.reload();
    await customer.getByText('Real-time', { exact: true }).waitFor({ timeout: 20_000 });

    // The pro accepts; the customer hears it live.
    await asPro(stack.url, pro, 'POST', `/api/jobs/accept/${jobId}`, {});
    await toast(customer, 'Worker assigned');
    const card = customer.getByRole('article', { name: /^Request [A-Z0-9_-]{8}$/i });
    await card.getByText('In Progress', { exact: true }).waitFor({ timeout: 10_000 });

    // The pro opens the job, shares their position and says they are a minute away.
    await worker.goto(`${stack.url}/worker/jobs/${jobId}`);
    const share = worker.getByRole('region', { name: 'Share your location' });
    await share.getByRole('button', { name: 'Find my location' }).click();
    await share.getByRole('button', { name: 'Start sharing location' }).click();
    await toast(worker, 'Location Sharing Started');
    await card.getByTestId('tracking-eta').getByText(/Arriving in about \d+ min/).waitFor({ timeout: 15_000 });
    await card.getByTestId('tracking-distance').waitFor();
    // Each fix reached the customer once, as one frame with the point and the ETA.
    const fixes = customerFrames.filter((f) => f.event === 'worker:loc');
    expect(fixes.length).toBeGreaterThan(0);
    expect(fixes.every((f) => f.data.jobId === jobId && typeof f.data.eta === 'number')).toBe(true);
    expect(new Set(fixes.map((f) => f.data.timestamp)).size).toBe(fixes.length);
    expect(customerFrames.filter((f) => f.event === 'location_update')).toEqual([]);
    expect(await seriousA11yViolations(worker)).toEqual([]);

    await worker.getByRole('button', { name: '1 minute away' }).click();
    await toast(customer, 'Your professional is 1 minute away');
    expect(await seriousA11yViolations(customer)).toEqual([]);

    expect(workerErrors).toEqual([]);
    expect(customerErrors).toEqual([]);
    await Promise.all([workerContext.close(), customerContext.close()]);
  });
});
