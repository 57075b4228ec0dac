import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSubscription, startFakePushService, type FakePushService } from '../../functions/testing/fake-push-service';
import { startLocalStack, type LocalStack } from './stack';

/**
 * Web push as `npm start` runs it: a notification that matters is stored by the function that
 * caused it, and the table's stream (dynalite's front, infra/local/dynamo-stream.ts) hands it to
 * deliver-push, which sends it to the browser's push service (here a stand-in on loopback).
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-push-stack-'));
let stack: LocalStack;
let pushService: FakePushService;

beforeAll(async () => {
  stack = await startLocalStack({ port: 0, dataDir, web: false });
  pushService = await startFakePushService();
});

afterAll(async () => {
  await stack?.stop();
  await pushService?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const booking = { name: 'Ravi', phone: '5550101234', address: '12 Harbour Road', category: 'cleaning' };

async function book(cookie?: string): Promise<Response> {
  return fetch(`${stack.url}/api/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(booking),
  });
}

async function until<T>(read: () => T | undefined, ms = 10_000): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('npm start: web push through the table stream', () => {
  it("pushes 'No worker available' to the customer's subscribed browser when nobody can take the booking", async () => {
    // Prepare: a first booking gives the customer their cookie; then push is enabled in their browser.
    const first = await book();
    expect(first.status).toBe(201);
    const cookie = first.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const browser = browserSubscription(pushService);
    const subscribed = await fetch(`${stack.url}/api/push/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(browser.json),
    });
    expect(subscribed.status).toBe(201);

    // Act: no pro is clocked in, so dispatch tells the customer at once (a high-priority notification).
    const second = await book(cookie);
    const message = await until(() => pushService.received.find((m) => m.path === browser.path));

    // Assess
    expect(second.status).toBe(201);
    expect(message, 'no push reached the browser').toBeDefined();
    expect(JSON.parse(browser.decrypt(message!.body))).toMatchObject({ title: 'No worker available' });
  });
});
