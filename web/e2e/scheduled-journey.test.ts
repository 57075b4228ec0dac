import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningStack } from '../../infra/testing/local-process';
import { launchBrowser, seriousA11yViolations } from './browser';
import { HOME, OFFLINE_GEOCODER, collectErrors, eventually, startJourneyStack, toast } from './journey';
import { approvedPro, arriveAtJob, asPro, ownerCookie } from './people';

/**
 * A job at a time of the customer's choosing: booked for the next morning, offered to a contract
 * pro who is not on the clock, moved half an hour by the customer on their tracking page, accepted,
 * both reminded an hour before, and the pro arrives in time.
 * The hour-before reminder is hours away, so the journey runs its timer through the running stack
 * (`npm run invoke`, as its schedule would at that moment) instead of waiting for the clock.
 */

const LIVE = { timeout: 30_000 };
const run = promisify(execFile);

interface Notification {
  type: string;
  title: string;
  jobId: string | null;
}

describe('a scheduled job', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-scheduled-e2e-'));
  let stack: RunningStack;
  let browser: Browser;
  let owner: string;
  const contexts: BrowserContext[] = [];

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
   * The customer's request for the next 09:00 in their browser's time zone (tomorrow morning, or this
   * morning when the journey runs before nine): always less than a day away, so its offers open at
   * once whatever the hour the journey runs. Answers its id and the instant.
   */
  function requestForNextMorning(page: Page): Promise<{ id: string; requestedTime: string }> {
    return page.evaluate(async (home) => {
      const at = new Date();
      at.setHours(9, 0, 0, 0);
      if (at.getTime() <= Date.now() + 60_000) at.setDate(at.getDate() + 1);
      const requestedTime = at.toISOString();
      const res = await fetch('/api/requests', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Robin Okafor',
          email: 'robin@example.com',
          phoneNumber: '(415) 555-0188',
          service: 'Plumbing',
          description: 'The bathroom tap drips; any time tomorrow morning suits.',
          location: '1 Dr Carlton B Goodlett Pl, San Francisco',
          clientLatitude: home.latitude,
          clientLongitude: home.longitude,
          gpsEnabled: true,
          requestedTime,
        }),
      });
      if (res.status !== 201) throw new Error(`request answered ${res.status}: ${await res.text()}`);
      return { id: ((await res.json()) as { request: { id: string } }).request.id, requestedTime };
    }, HOME);
  }

  /** Runs a timer now against this journey's stack, as its schedule would when due. */
  async function fireTimer(name: string, input: unknown): Promise<void> {
    const file = path.join(dataDir, `${name}-event.json`);
    writeFileSync(file, JSON.stringify(input));
    // The runner's own Node, the functions' runtime: a bare `npx` runs whichever node PATH has first.
    await run(process.execPath, ['--import', 'tsx', 'infra/local/invoke.ts', name, file], { env: { ...process.env, DATA_DIR: dataDir }, cwd: path.resolve(import.meta.dirname, '../..') });
  }

  it('is offered to a contract pro off the clock, rescheduled by the customer, reminded to both an hour before, and arrived at in time', async () => {
    // Prepare: a contract plumber, approved, neither clocked in nor on call.
    const pro = await approvedPro(stack.url, owner, 'Casey Lindqvist', ['plumbing']);
    await asPro(stack.url, pro, 'POST', '/api/workers/worker-type', { workerType: 'contract' });
    const context = await browser.newContext({ geolocation: HOME, permissions: ['geolocation'], timezoneId: 'America/Los_Angeles' });
    contexts.push(context);
    const customer = await context.newPage();
    const customerErrors = collectErrors(customer);
    await customer.goto(`${stack.url}/`);

    // Act: the customer books for the next morning at nine (less than a day away: its offers open at once).
    const { id: jobId, requestedTime: first } = await requestForNextMorning(customer);

    // Assess: the contract pro is offered it, and the customer's page says when it is scheduled.
    await eventually(
      () => asPro(stack.url, pro, 'GET', `/api/jobs/offers/${pro.id}`) as Promise<{ id: string }[]>,
      (offers) => offers.some((offer) => offer.id === jobId),
    );
    await customer.goto(`${stack.url}/track#id=${jobId}`);
    await customer.getByTestId('scheduled-for').waitFor(LIVE);
    expect(await seriousA11yViolations(customer)).toEqual([]);

    // Act: the customer moves it half an hour earlier on their tracking page (later when that would be too soon).
    const moved = await customer.evaluate((iso) => {
      const start = Date.parse(iso);
      const at = new Date(start - 30 * 60_000 > Date.now() + 5 * 60_000 ? start - 30 * 60_000 : start + 30 * 60_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      return { iso: at.toISOString(), local: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}` };
    }, first);
    await customer.getByRole('button', { name: 'Reschedule' }).click();
    await customer.getByLabel('New date and time').fill(moved.local);
    await customer.getByRole('button', { name: 'Save new time' }).click();

    // Assess: saved, and offered again for the new time.
    await toast(customer, 'Rescheduled');
    const requestedTime = moved.iso;
    await eventually(
      () => asPro(stack.url, pro, 'GET', `/api/jobs/offers/${pro.id}`) as Promise<{ id: string }[]>,
      (offers) => offers.some((offer) => offer.id === jobId),
    );

    // Act: the pro accepts; an hour before the start, the reminder's timer runs.
    const accepted = (await asPro(stack.url, pro, 'POST', `/api/jobs/accept/${jobId}`, {})) as { arriveBy: string | null };
    await fireTimer('send-job-reminder', { jobId, start: requestedTime, kind: 'hour' });

    // Assess: the 45 minutes count from the start; both were reminded, once.
    expect(accepted.arriveBy).toBe(new Date(Date.parse(requestedTime) + 45 * 60_000).toISOString());
    const proReminders = ((await asPro(stack.url, pro, 'GET', '/api/notifications')) as Notification[]).filter((n) => n.type === 'job_reminder' && n.jobId === jobId);
    expect(proReminders.map((n) => n.title)).toEqual(['Job in an hour: Plumbing']);
    const customerReminders = (await customer.evaluate(async () => (await (await fetch('/api/notifications')).json()) as Notification[])).filter(
      (n) => n.type === 'job_reminder' && n.jobId === jobId,
    );
    expect(customerReminders.map((n) => n.title)).toEqual(['Your Plumbing is in an hour']);

    // Act: the pro sets off and arrives at the address (before the start, well inside the grace).
    await asPro(stack.url, pro, 'POST', `/api/jobs/${jobId}/state`, { state: 'en_route' });
    const arrived = await arriveAtJob(stack.url, pro, jobId);

    // Assess: arrived on time; the customer can no longer move the time.
    expect(arrived.state).toBe('arrived');
    await customer.reload();
    await customer.getByTestId('scheduled-for').waitFor(LIVE);
    expect(await customer.getByRole('button', { name: 'Reschedule' }).count()).toBe(0);
    expect(customerErrors).toEqual([]);
  });
});
