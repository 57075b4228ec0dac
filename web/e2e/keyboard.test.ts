import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';
import { launchBrowser } from './browser';
import { collectErrors, HOME, NEAR, OFFLINE_GEOCODER } from './journey';
import { approvedPro, asPro, ownerCookie } from './people';

/**
 * Keyboard only: the home page from the first Tab (skip link, the navigation, the request form),
 * every stop with a focus ring one can see; a modal dialog (Hire Now on the client dashboard)
 * keeps Tab inside, closes on Escape and gives focus back to the button that opened it.
 */

interface Stop {
  /** Tag and accessible text, for messages. */
  name: string;
  /** Whether focus draws something on it: an outline, or a ring (a box shadow) it has not at rest. */
  ringed: boolean;
  /** Whether it is inside the page's viewport (a skip link must show when focused). */
  inView: boolean;
}

/**
 * Notes how every control on the page looks at rest (its box shadow), so a stop's ring can be told
 * from a ring it always has. Run again once new controls appear.
 */
async function noteRestingLooks(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')) {
      if (el !== document.activeElement) el.dataset.restingShadow = getComputedStyle(el).boxShadow;
    }
  });
}

/** What has focus now, and whether it shows. */
async function focused(page: Page): Promise<Stop> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: 'body', ringed: false, inView: false };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 && style.outlineColor !== 'rgba(0, 0, 0, 0)';
    const ring = style.boxShadow !== 'none' && style.boxShadow !== el.dataset.restingShadow;
    const box = el.getBoundingClientRect();
    const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60);
    const label = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent?.trim() : undefined;
    return {
      name: `${el.tagName.toLowerCase()} "${label ?? text}"`,
      ringed: outline || ring,
      inView: box.width > 1 && box.height > 1 && box.bottom > 0 && box.top < window.innerHeight,
    };
  });
}

/** Presses Tab until `until` holds for a stop (at most `limit` times); every stop on the way. */
async function tabUntil(page: Page, until: (stop: Stop) => boolean, limit = 60): Promise<Stop[]> {
  const stops: Stop[] = [];
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const stop = await focused(page);
    stops.push(stop);
    if (until(stop)) return stops;
  }
  throw new Error(`Not reached in ${limit} Tabs; stops: ${stops.map((s) => s.name).join(', ')}`);
}

describe('the site by keyboard', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-keyboard-e2e-'));
  let stack: RunningStack;
  let browser: Browser;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStackProcess(dataDir, OFFLINE_GEOCODER), launchBrowser()]);
    // A pro on call near the customer, for Hire Now.
    const pro = await approvedPro(stack.url, await ownerCookie(stack), 'Sam Ortiz', ['electrical']);
    await asPro(stack.url, pro, 'POST', '/api/workers/clock-in');
    await asPro(stack.url, pro, 'POST', '/api/workers/availability', { isAvailable: true });
    await asPro(stack.url, pro, 'POST', '/api/workers/location', NEAR);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('tabs from the skip link through the navigation to the request form, each stop visibly focused', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${stack.url}/`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Plumbing' }).waitFor();
    await noteRestingLooks(page);

    // The first Tab shows the skip link; Enter takes focus past the navigation to the content.
    await page.keyboard.press('Tab');
    const skip = await focused(page);
    expect(skip).toEqual({ name: 'a "Skip to content"', ringed: expect.any(Boolean), inView: true });
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    const afterSkip = await tabUntil(page, () => true);
    expect(afterSkip[0]!.name).toBe('a "Book Now"');

    // From the top again: the navigation's links, then on into the request flow's picker.
    await page.goto(`${stack.url}/`);
    await page.getByRole('button', { name: 'Plumbing' }).waitFor();
    await noteRestingLooks(page);
    const toPicker = await tabUntil(page, (stop) => stop.name === 'button "Plumbing"');
    const names = toPicker.map((stop) => stop.name);
    for (const link of ['Home', 'Services', 'Book', 'Track', 'Apply as Worker', 'Apply as Company', 'Worker Login']) {
      expect(names).toContain(`a "${link}"`);
    }
    expect(toPicker.filter((stop) => !stop.ringed || !stop.inView)).toEqual([]);

    // Enter opens the request form; its fields are next in the tab order, ringed too.
    await page.keyboard.press('Enter');
    await page.getByLabel('Description').waitFor();
    await noteRestingLooks(page);
    const toForm = await tabUntil(page, (stop) => stop.name === 'input "Name"');
    const inForm = await tabUntil(page, (stop) => stop.name === 'textarea "Description"');
    expect([...toForm, ...inForm].filter((stop) => !stop.ringed || !stop.inView)).toEqual([]);
    expect(inForm.map((stop) => stop.name)).toEqual(expect.arrayContaining(['input "Email"', 'input "Phone number"']));

    expect(errors).toEqual([]);
    await context.close();
  });

  it('a dialog keeps Tab inside, closes on Escape and returns focus to its opener', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, geolocation: HOME, permissions: ['geolocation'] });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(`${stack.url}/client-dashboard`);
    await page.getByRole('button', { name: 'Find Available Workers' }).focus();
    await page.keyboard.press('Enter');
    const hire = page.getByRole('article', { name: 'Sam Ortiz' }).getByRole('button', { name: 'Hire Now' });
    await hire.waitFor({ timeout: 15_000 });
    await hire.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Hire Sam Ortiz' });
    await dialog.waitFor();
    await noteRestingLooks(page);

    const inside = () => page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')));
    expect(await inside()).toBe(true);
    const stops = await page.evaluate(
      () => document.querySelectorAll('dialog[open] a[href], dialog[open] button:not([disabled]), dialog[open] input:not([disabled]), dialog[open] select:not([disabled]), dialog[open] textarea:not([disabled])').length,
    );
    // Round the dialog and a little more, forwards and back: focus never leaves it and always shows.
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let i = 0; i < stops + 2; i += 1) {
        await page.keyboard.press(key);
        expect(await inside()).toBe(true);
        const stop = await focused(page);
        expect(stop.ringed, `${stop.name} has no visible focus`).toBe(true);
      }
    }

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Hire Now');
    expect(await page.evaluate(() => document.activeElement?.closest('article')?.getAttribute('aria-label') ?? document.activeElement?.closest('article')?.textContent)).toMatch(/Sam Ortiz/);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('a toast is read out: it arrives in a live region that was on the page before it', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const errors = collectErrors(page);
    // Notes in which change of the page each arrives: the live region, then (later) the toast in it.
    await context.addInitScript(() => {
      const seen: Record<string, number> = {};
      (window as unknown as { arrivals: Record<string, number> }).arrivals = seen;
      let change = 0;
      new MutationObserver((records) => {
        change += 1;
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (!(node instanceof Element)) continue;
            if (node.matches('[aria-live]') || node.querySelector('[aria-live]')) seen.region ??= change;
            if (node.closest('[aria-live]') && node.textContent?.includes('Failed to submit rating')) seen.toast ??= change;
          }
        }
      }).observe(document, { subtree: true, childList: true });
    });
    // A rating for a job that does not exist: the server refuses it and the page says so in a toast.
    await page.goto(`${stack.url}/rate/no-such-job`);
    await page.getByRole('radio', { name: '5 stars, Excellent' }).focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Submit Rating' }).focus();
    await page.keyboard.press('Enter');
    const toastText = page.getByText('Failed to submit rating', { exact: true }).first();
    await toastText.waitFor();
    expect(await toastText.evaluate((el) => el.closest('[aria-live]')?.getAttribute('aria-live'))).toMatch(/^(polite|assertive)$/);
    const arrivals = await page.evaluate(() => (window as unknown as { arrivals: Record<string, number> }).arrivals);
    expect(arrivals.toast).toBeGreaterThan(arrivals.region!);

    expect(errors).toEqual([]);
    await context.close();
  });
});
