import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { env } from '../common/env';
import { newId } from '../common/ids';
import { readSecretFields } from '../common/secrets';
import { markIssued } from '../testing/customers';
import { invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { browserSubscription, startFakePushService, vapidClaims } from '../testing/fake-push-service';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';
import { handler } from './send-test-push';
import { handler as subscribe } from './subscribe-push';

// The keys the handlers sign with: the test setup's VAPID secret, read as they read it.
const vapid = { publicKey: (await readSecretFields('vapid', ['publicKey'])).publicKey, subject: env.VAPID_SUBJECT };

const pushService = await startFakePushService();
afterAll(() => pushService.close());
afterEach(() => {
  pushService.answer = () => 201;
});

const sample = sampleEvent('send-test-push');
/** Sent by the customer `customerId`, an identity the server issued (as their first booking would have). */
const asCustomer = async (event: typeof sample, customerId: string) => withCookies(event, [await markIssued(customerId)]);

/** A browser of the customer with push enabled through POST /api/push/subscribe. */
async function subscribedBrowser(customerId: string) {
  const browser = browserSubscription(pushService);
  const res = await invoke(subscribe, await asCustomer(withBody(sampleEvent('subscribe-push'), browser.json), customerId));
  expect(res.status).toBe(201);
  return browser;
}

const receivedBy = (browser: { path: string }) => pushService.received.filter((m) => m.path === browser.path);

describe('POST /api/push/test', () => {
  it("sends an encrypted, VAPID-signed 'Test notification' to every browser of the caller and no one else", async () => {
    // Prepare
    const customerId = newId();
    const phone = await subscribedBrowser(customerId);
    const laptop = await subscribedBrowser(customerId);
    const someoneElse = await subscribedBrowser(newId());

    // Act
    const res = await invoke(handler, await asCustomer(sample, customerId));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, sent: 2 });
    for (const browser of [phone, laptop]) {
      const [message, ...more] = receivedBy(browser);
      expect(more).toHaveLength(0);
      expect(message!.headers['content-encoding']).toBe('aes128gcm');
      expect(Number(message!.headers.ttl)).toBeGreaterThan(0);
      expect(JSON.parse(browser.decrypt(message!.body))).toEqual({
        title: 'Test notification',
        body: 'Push notifications are working on this device.',
        url: '/',
        tag: 'test',
      });
      const claims = vapidClaims(message!.headers.authorization, vapid.publicKey!);
      expect(claims).toMatchObject({ aud: pushService.url, sub: vapid.subject });
      expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    }
    expect(receivedBy(someoneElse)).toHaveLength(0);
  });

  it('deletes a subscription its push service answers 410 Gone for, and still reaches the others', async () => {
    // Prepare
    const customerId = newId();
    const gone = await subscribedBrowser(customerId);
    const live = await subscribedBrowser(customerId);
    pushService.answer = (path) => (path === gone.path ? 410 : 201);

    // Act
    const res = await invoke(handler, await asCustomer(sample, customerId));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, sent: 1 });
    const person = { role: 'customer' as const, userId: customerId };
    expect(await pushSubscriptionsRepo.find(person, gone.endpoint)).toBeUndefined();
    expect(await pushSubscriptionsRepo.personOf(gone.endpoint)).toBeUndefined();
    expect((await pushSubscriptionsRepo.listFor(person)).map((s) => s.endpoint)).toEqual([live.endpoint]);
    expect((await pushSubscriptionsRepo.find(person, live.endpoint))?.lastUsed).toEqual(expect.any(String));
  });

  it('answers 404 with the way forward when the only subscription was gone (404) at its push service', async () => {
    const customerId = newId();
    const browser = await subscribedBrowser(customerId);
    pushService.answer = () => 404;

    const res = await invoke(handler, await asCustomer(sample, customerId));

    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No push subscription for this browser. Enable push first.');
    expect(await pushSubscriptionsRepo.personOf(browser.endpoint)).toBeUndefined();
  });

  it('answers 502 and keeps the subscription when the push service fails for another reason', async () => {
    const customerId = newId();
    const browser = await subscribedBrowser(customerId);
    pushService.answer = () => 500;

    const res = await invoke(handler, await asCustomer(sample, customerId));

    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/push service did not accept/);
    expect(await pushSubscriptionsRepo.find({ role: 'customer', userId: customerId }, browser.endpoint)).toBeDefined();
  });

  it("sends to the worker's subscriptions when the browser carries a worker token as well as a customer cookie", async () => {
    // Prepare
    const customerId = newId();
    const customerBrowser = await subscribedBrowser(customerId);
    const worker = await createTestWorker();
    const token = await workerToken(worker.id);
    const workerBrowser = browserSubscription(pushService);
    await invoke(subscribe, withBearer(withBody(sampleEvent('subscribe-push'), workerBrowser.json), token));

    // Act
    const res = await invoke(handler, withBearer(await asCustomer(sample, customerId), token));

    // Assess
    expect(res.status).toBe(200);
    expect(JSON.parse(workerBrowser.decrypt(receivedBy(workerBrowser)[0]!.body))).toMatchObject({ title: 'Test notification', url: '/worker/dashboard' });
    expect(receivedBy(customerBrowser)).toHaveLength(0);
  });

  it('answers 404 "Enable push first" to a signed-in caller without subscriptions', async () => {
    const res = await invoke(handler, await asCustomer(sample, newId()));

    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No push subscription for this browser. Enable push first.');
  });

  it('answers 401 to a caller who is nobody (the sample event)', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/log in, or make a booking or request first/);
  });
});

describe('POST /api/push/test (anywhere but the local runtime)', () => {
  afterEach(() => {
    vi.doUnmock('../common/env');
    vi.resetModules();
  });

  it('posts nothing to a stored endpoint that is not a push service (loopback here) and forgets it', async () => {
    // Prepare: a row naming loopback, as one stored before endpoints were checked would
    const worker = await createTestWorker();
    const person = { role: 'worker' as const, userId: worker.id };
    const internal = browserSubscription(pushService);
    await pushSubscriptionsRepo.save(person, { endpoint: internal.endpoint, ...internal.json.keys }, new Date().toISOString());
    vi.resetModules();
    vi.doMock('../common/env', async (importOriginal) => {
      const actual = await importOriginal<typeof import('../common/env')>();
      return { ...actual, env: { ...actual.env, LOCAL_RUNTIME: false }, secureCookies: true };
    });
    const deployed = (await import('./send-test-push')).handler;

    // Act
    const res = await invoke(deployed, withBearer(sample, await workerToken(worker.id)));

    // Assess
    expect(receivedBy(internal)).toHaveLength(0);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('No push subscription for this browser. Enable push first.');
    expect(await pushSubscriptionsRepo.find(person, internal.endpoint)).toBeUndefined();
  });
});
