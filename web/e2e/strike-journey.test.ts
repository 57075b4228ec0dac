import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { NEAR, OFFLINE_GEOCODER, collectErrors, eventually, requestFromPage, startJourneyStack, toast } from './journey';
import { approvedPro, asPro, bringOnCall, ownerCookie, signIn, type Pro } from './people';

/**
 * A fair strike record: a pro who does not arrive in time gets a strike they can see with its
 * evidence and appeal; the owner voids it; two strikes that count suspend the pro (the suspended
 * screen says why and keeps the appeals), and the owner reinstates them.
 */

/** The polls of both consoles can take a while on a busy machine. */
const LIVE = { timeout: 30_000 };

interface StrikeRecord {
  status: string;
  strikes: number;
  items: { id: string; status: string }[];
}

describe('a fair strike record', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-strike-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  let owner: string;
  let pro: Pro;
  const contexts: BrowserContext[] = [];

  async function newContext(): Promise<BrowserContext> {
    const context = await browser.newContext();
    contexts.push(context);
    return context;
  }

  beforeAll(async () => {
    // A 3-second arrival grace: the timer fires while the journey waits, as it would after 45 minutes.
    [stack, browser] = await Promise.all([startJourneyStack(dataDir, { ...OFFLINE_GEOCODER, ARRIVAL_GRACE_SECONDS: '3' }), launchBrowser()]);
    owner = await ownerCookie(stack);
    pro = await approvedPro(stack.url, owner, 'Casey Late', ['electrical']);
    await bringOnCall(stack.url, pro, NEAR);
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const record = () => asPro(stack.url, pro, 'GET', '/api/workers/strikes') as Promise<StrikeRecord>;

  /** A customer asks for an electrician; the pro accepts and then does not arrive: the timer strikes. */
  async function lateArrival(customer: Page, customerName: string): Promise<void> {
    const before = (await record()).items.length;
    const jobId = await requestFromPage(customer, {
      name: customerName,
      email: 'customer@example.com',
      phoneNumber: '(415) 555-0123',
      service: 'Electrical',
      description: 'Half the sockets in the kitchen stopped working.',
    });
    await eventually(
      () => asPro(stack.url, pro, 'GET', `/api/jobs/offers/${pro.id}`) as Promise<{ id: string }[]>,
      (offers) => offers.some((offer) => offer.id === jobId),
    );
    await asPro(stack.url, pro, 'POST', `/api/jobs/accept/${jobId}`, { workerId: pro.id });
    await eventually(record, (r) => r.items.length === before + 1);
  }

  async function ownerPage(): Promise<Page> {
    const context = await newContext();
    const [name, value] = owner.split('=') as [string, string];
    await context.addCookies([{ name, value, url: stack.url }]);
    return context.newPage();
  }

  it('lets a struck pro appeal, the owner void the strike, and reinstate the pro a second strike suspended', async () => {
    const customer = await (await newContext()).newPage();
    await customer.goto(`${stack.url}/`);

    // Act: the pro accepts a job and misses the deadline.
    await lateArrival(customer, 'Robin Diaz');

    // Assess: the pro sees the strike with its evidence, and appeals it.
    const workerContext = await newContext();
    await signIn(workerContext, stack.url, pro);
    const worker = await workerContext.newPage();
    const workerErrors = collectErrors(worker);
    await worker.goto(`${stack.url}/worker/dashboard`);
    await worker.getByRole('heading', { name: 'Worker Dashboard' }).waitFor();
    await worker.getByRole('tab', { name: 'Strikes' }).click();
    const strike = worker.getByTestId('strike').first();
    await strike.getByText('Standing').waitFor(LIVE);
    await strike.getByText(/Arrival deadline:/).waitFor();
    await strike.getByRole('button', { name: 'Appeal this strike' }).click();
    await strike.getByLabel('Why is this strike wrong?').fill('The building’s gate was locked; I called the customer at the deadline.');
    await strike.getByRole('button', { name: 'Send appeal' }).click();
    await toast(worker, 'Appeal Sent');
    await strike.getByText('Appeal pending').waitFor();
    expect(await seriousA11yViolations(worker)).toEqual([]);

    // The owner finds the appeal in Workers, with the evidence, and voids the strike with a note.
    const admin = await ownerPage();
    const adminErrors = collectErrors(admin);
    await admin.goto(`${stack.url}/admin?tab=workers`);
    await admin.getByRole('heading', { name: /Strike appeals to decide/ }).waitFor(LIVE);
    const appeal = admin.getByRole('group', { name: /^Casey Late: Late arrival/ });
    await appeal.getByText(/gate was locked/).waitFor();
    await appeal.getByLabel('Decision note for Casey Late').fill('The customer confirmed the gate was locked.');
    await appeal.getByRole('button', { name: 'Void strike of Casey Late' }).click();
    await toast(admin, 'Strike Voided');
    await admin.getByRole('heading', { name: /Strike appeals to decide/ }).waitFor({ state: 'detached', ...LIVE });
    expect(await seriousA11yViolations(admin)).toEqual([]);

    // The pro sees the decision and the note; the strike no longer counts.
    await worker.reload();
    await worker.getByRole('tab', { name: 'Strikes' }).click();
    await worker.getByTestId('strike').first().getByText('Voided', { exact: true }).waitFor(LIVE);
    await worker.getByText(/The customer confirmed the gate was locked/).waitFor();
    expect((await record()).strikes).toBe(0);

    // Act: two more late arrivals: the second strike that counts suspends the pro.
    await lateArrival(customer, 'Alex Moreno');
    await lateArrival(customer, 'Jamie Chen');
    expect(await record()).toMatchObject({ status: 'suspended', strikes: 2 });

    // Assess: the pro's screen says they are suspended, why, and keeps the appeals.
    await worker.reload();
    await worker.getByRole('heading', { name: 'Account Suspended' }).waitFor(LIVE);
    await worker.getByTestId('suspension-reason').getByText(/2 strikes/).waitFor();
    await worker.getByText(/suspension lasts until the owner reinstates/).waitFor();
    expect(await worker.getByRole('button', { name: 'Appeal this strike' }).count()).toBe(2);
    expect(await seriousA11yViolations(worker)).toEqual([]);

    // The owner sees the suspended pro and reinstates them with a reason.
    await admin.reload();
    const card = admin.getByRole('group', { name: 'Casey Late', exact: true });
    await card.getByText('Suspended', { exact: true }).waitFor(LIVE);
    await card.getByRole('button', { name: 'Reinstate Casey Late' }).click();
    await card.getByLabel(/Reason for Casey Late/).fill('Reviewed with the pro: both were road closures.');
    await card.getByRole('button', { name: 'Confirm reinstatement of Casey Late' }).click();
    await toast(admin, 'Worker Reinstated');
    await card.getByText('Active', { exact: true }).waitFor(LIVE);

    // The pro's dashboard is back.
    await worker.reload();
    await worker.getByRole('heading', { name: 'Worker Dashboard' }).waitFor(LIVE);
    expect((await record()).status).toBe('active');
    expect(workerErrors).toEqual([]);
    expect(adminErrors).toEqual([]);
  });
});
