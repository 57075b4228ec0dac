import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import type { StoredMail } from '../../infra/local/ses';
import { startStackProcess, type RunningStack } from '../../infra/testing/local-process';

/** What the browser journeys share: places, the offline geocoder, toasts and page errors. */

/** The customer (San Francisco City Hall) and pros a few blocks away, and farther. */
export const HOME = { latitude: 37.7793, longitude: -122.4193 };
export const NEAR = { latitude: 37.7812, longitude: -122.4158 };
export const FARTHER = { latitude: 37.7952, longitude: -122.4028 };
/** The geocoder is out of reach here; a closed port makes that immediate rather than a timeout. */
export const OFFLINE_GEOCODER = { GEOCODER_URL: 'http://127.0.0.1:9' };

export async function toast(page: Page, title: string): Promise<void> {
  await page.getByText(title, { exact: true }).first().waitFor();
}

/** Uncaught errors of the page, to assert there were none. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/**
 * A service request sent from the customer's page, as the home page's form sends it (so the
 * browser gets the customer cookie), located at HOME. Answers the request's id.
 */
export async function requestFromPage(page: Page, request: { name: string; email: string; phoneNumber: string; service: string; description: string }): Promise<string> {
  return withStackWarnings(() => page.evaluate(
    async ({ body, home }) => {
      const send = () =>
        fetch('/api/requests', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            ...body,
            location: '1 Dr Carlton B Goodlett Pl, San Francisco',
            clientLatitude: home.latitude,
            clientLongitude: home.longitude,
            gpsEnabled: true,
          }),
        });
      let res = await send();
      // 503 is the API's "come back in a few seconds" (with Retry-After), as a person presses Send
      // again; a loaded test machine can meet it. Once, after the time it asks for.
      if (res.status === 503) {
        await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers.get('retry-after') ?? 1)));
        res = await send();
      }
      if (res.status !== 201) throw new Error(`request answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { request: { id: string } }).request.id;
    },
    { body: request, home: HOME },
  ));
}

/** The job a /track address names: its #id=, where the product's links carry it. */
export function trackedIdIn(url: string): string {
  const id = new URLSearchParams(new URL(url).hash.slice(1)).get('id');
  if (!id) throw new Error(`no #id= in ${url}`);
  return id;
}

const running = new Set<RunningStack>();

/**
 * A failure of `work` carries the warnings the running stacks logged (which dependency did not
 * answer, and why): a 503 on a loaded machine says nothing more by itself.
 */
export async function withStackWarnings<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const warnings = [...running]
      .flatMap((stack) => stack.output().split('\n'))
      .filter((line) => /"level":"(warn|error)"|failed|Error/.test(line))
      .slice(-15);
    if (error instanceof Error && warnings.length > 0) error.message += `\nThe stack logged:\n${warnings.join('\n')}`;
    throw error;
  }
}

/**
 * `npm start` as a person runs it, serving this run's production build (web/e2e/global-setup.ts)
 * as CloudFront serves it: the journeys test what people get, not Vite's dev server.
 */
export async function startJourneyStack(dataDir: string, env: Record<string, string> = {}): Promise<RunningStack> {
  const stack = await startStackProcess(dataDir, { WEB_DIST: inject('webDist'), ...env });
  running.add(stack);
  stack.child.once('exit', () => running.delete(stack));
  return stack;
}

/**
 * Holds the page's scripts back until the answer is called, as on a slow phone: the prerendered
 * HTML is there to type into and press before the app runs.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Polls until `ok` holds for what `read` answers: for what the server or the page reaches on its own
 * (offers going out, a list's next poll).
 */
export async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Every mail the stack's local SES kept for `to` (its To list names it), oldest first. The SES's
 * address is in the data folder's stack.json, which the running stack writes (infra/local/stack.ts).
 */
export async function mailsTo(dataDir: string, to: string): Promise<StoredMail[]> {
  const { sesEndpoint } = JSON.parse(readFileSync(path.join(dataDir, 'stack.json'), 'utf8')) as { sesEndpoint: string };
  const response = await fetch(`${sesEndpoint}/_local/messages`);
  if (!response.ok) throw new Error(`The local SES answered ${response.status}`);
  const { messages } = (await response.json()) as { messages: StoredMail[] };
  return messages.filter((m) => m.to.some((address) => address.toLowerCase() === to.toLowerCase()));
}
