import { afterEach, describe, expect, it, vi } from 'vitest';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { newId } from '../common/ids';
import { markIssued } from '../testing/customers';
import { invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { browserSubscription } from '../testing/fake-push-service';
import { ownerTestSession } from '../testing/owner';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';
import { handler } from './subscribe-push';
import { AUTH_MESSAGE, P256DH_MESSAGE } from '../../shared/schemas/push';

const sample = sampleEvent('subscribe-push');
// A browser vendor's push service: the only hosts a subscription may name (nothing is sent here).
const service = { url: 'https://fcm.googleapis.com/fcm/send' };
/** Sent by the customer `customerId`, an identity the server issued (as their first booking would have). */
const asCustomer = async (event: typeof sample, customerId: string) => withCookies(event, [await markIssued(customerId)]);

describe('POST /api/push/subscribe', () => {
  it("stores the browser's subscription for the customer with its keys and user agent, answering 201", async () => {
    // Prepare
    const customerId = newId();
    const browser = browserSubscription(service);

    // Act
    const res = await invoke(handler, await asCustomer(withBody(sample, { ...browser.json, userAgent: 'Firefox/140' }), customerId));

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true });
    const stored = await pushSubscriptionsRepo.find({ role: 'customer', userId: customerId }, browser.endpoint);
    expect(stored).toMatchObject({
      endpoint: browser.endpoint,
      p256dhKey: browser.json.keys.p256dh,
      authKey: browser.json.keys.auth,
      userAgent: 'Firefox/140',
      isActive: true,
    });
    expect(await pushSubscriptionsRepo.personOf(browser.endpoint)).toEqual({ role: 'customer', userId: customerId });
  });

  it('replaces the keys when the same browser subscribes again, keeping one subscription', async () => {
    // Prepare
    const customerId = newId();
    const first = browserSubscription(service);
    const renewed = browserSubscription(service);
    await invoke(handler, await asCustomer(withBody(sample, first.json), customerId));

    // Act
    const res = await invoke(handler, await asCustomer(withBody(sample, { ...renewed.json, endpoint: first.endpoint }), customerId));

    // Assess
    expect(res.status).toBe(201);
    const all = await pushSubscriptionsRepo.listFor({ role: 'customer', userId: customerId });
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ endpoint: first.endpoint, p256dhKey: renewed.json.keys.p256dh, authKey: renewed.json.keys.auth });
  });

  it("moves the endpoint to the worker when a worker signs in on a browser subscribed as a customer", async () => {
    // Prepare
    const customerId = newId();
    const worker = await createTestWorker();
    const browser = browserSubscription(service);
    await invoke(handler, await asCustomer(withBody(sample, browser.json), customerId));

    // Act: the browser still carries the customer cookie; the token comes first.
    const res = await invoke(handler, withBearer(await asCustomer(withBody(sample, browser.json), customerId), await workerToken(worker.id)));

    // Assess
    expect(res.status).toBe(201);
    expect(await pushSubscriptionsRepo.personOf(browser.endpoint)).toEqual({ role: 'worker', userId: worker.id });
    expect(await pushSubscriptionsRepo.listFor({ role: 'customer', userId: customerId })).toEqual([]);
    expect(await pushSubscriptionsRepo.listFor({ role: 'worker', userId: worker.id })).toHaveLength(1);
  });

  it("stores the owner's subscription under the owner's one channel id", async () => {
    const owner = await ownerTestSession();
    const browser = browserSubscription(service);

    const res = await invoke(handler, withCookies(withBody(sample, browser.json), [owner.cookie]));

    expect(res.status).toBe(201);
    expect(await pushSubscriptionsRepo.personOf(browser.endpoint)).toEqual({ role: 'owner', userId: 'owner' });
  });

  it('keeps one subscription when the same browser subscribes twice at once', async () => {
    const customerId = newId();
    const browser = browserSubscription(service);
    const event = await asCustomer(withBody(sample, browser.json), customerId);

    const results = await Promise.all([invoke(handler, event), invoke(handler, event)]);

    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(await pushSubscriptionsRepo.listFor({ role: 'customer', userId: customerId })).toHaveLength(1);
  });

  it("refuses a subscription without both encryption keys with 'Missing subscription keys'", async () => {
    const browser = browserSubscription(service);

    const noAuth = await invoke(handler, await asCustomer(withBody(sample, { ...browser.json, keys: { p256dh: browser.json.keys.p256dh } }), newId()));
    const noKeys = await invoke(handler, await asCustomer(withBody(sample, { endpoint: browser.endpoint }), newId()));

    expect(noAuth.status).toBe(400);
    expect(noAuth.body.message).toBe('Missing subscription keys');
    expect(noKeys.status).toBe(400);
    expect(noKeys.body.message).toBe('Missing subscription keys');
    expect(await pushSubscriptionsRepo.personOf(browser.endpoint)).toBeUndefined();
  });

  it('refuses keys no push could be encrypted with, saying so on the key, and stores nothing', async () => {
    // Prepare: the right lengths but no P-256 point (its last byte changed), a compressed point, a short secret, not base64url
    const browser = browserSubscription(service);
    const point = Buffer.from(browser.json.keys.p256dh, 'base64url');
    const offCurve = Buffer.from(point);
    offCurve[64]! ^= 1;
    const cases = [
      { keys: { ...browser.json.keys, p256dh: offCurve.toString('base64url') }, field: 'keys.p256dh', message: P256DH_MESSAGE },
      { keys: { ...browser.json.keys, p256dh: Buffer.concat([Buffer.from([0x02]), point.subarray(1, 33)]).toString('base64url') }, field: 'keys.p256dh', message: P256DH_MESSAGE },
      { keys: { ...browser.json.keys, p256dh: 'B'.repeat(87) + '!' }, field: 'keys.p256dh', message: P256DH_MESSAGE },
      { keys: { ...browser.json.keys, auth: Buffer.alloc(12, 7).toString('base64url') }, field: 'keys.auth', message: AUTH_MESSAGE },
    ];

    for (const { keys, field, message } of cases) {
      // Act
      const res = await invoke(handler, await asCustomer(withBody(sample, { ...browser.json, keys }), newId()));

      // Assess
      expect(res.status).toBe(400);
      expect(res.body.fields[field]).toBe(message);
    }
    expect(await pushSubscriptionsRepo.personOf(browser.endpoint)).toBeUndefined();
  });

  it('refuses an endpoint that is not a push service URL', async () => {
    const browser = browserSubscription(service);

    const res = await invoke(handler, await asCustomer(withBody(sample, { ...browser.json, endpoint: 'http://example.com/push/x' }), newId()));

    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty('endpoint');
  });

  it('answers 401 to nobody (the sample event) and stores nothing', async () => {
    // Prepare: the sample's own body with an endpoint of this case alone (other files subscribe the sample's)
    const browser = browserSubscription(service);

    // Act
    const res = await invoke(handler, withBody(sample, browser.json));

    // Assess
    expect(res.status).toBe(401);
    expect(await pushSubscriptionsRepo.personOf(browser.endpoint)).toBeUndefined();
  });
});

describe('POST /api/push/subscribe (anywhere but the local runtime)', () => {
  afterEach(() => {
    vi.doUnmock('../common/env');
    vi.resetModules();
  });

  /** The handler as a deployed function builds it: without the local runtime's LOCAL_RUNTIME. */
  async function deployedHandler() {
    vi.resetModules();
    vi.doMock('../common/env', async (importOriginal) => {
      const actual = await importOriginal<typeof import('../common/env')>();
      return { ...actual, env: { ...actual.env, LOCAL_RUNTIME: false }, secureCookies: true };
    });
    return (await import('./subscribe-push')).handler;
  }

  it.each([
    ['a private address', { url: 'https://10.0.0.5' }],
    ['loopback', { url: 'http://127.0.0.1:8080' }],
  ])("refuses an endpoint at %s with 400 and a sentence saying which browsers work, storing nothing", async (_what, host) => {
    // Prepare: the test push would POST to whatever endpoint was stored
    const deployed = await deployedHandler();
    const browser = browserSubscription(host);
    const worker = await createTestWorker();

    // Act
    const res = await invoke(deployed, withBearer(withBody(sample, browser.json), await workerToken(worker.id)));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ValidationError');
    expect(res.body.fields).toEqual({ endpoint: "This browser's push service is not one we send to. Enable push in Chrome, Edge, Firefox or Safari." });
    expect(await pushSubscriptionsRepo.personOf(browser.endpoint)).toBeUndefined();
  });

  it("stores an endpoint at a browser vendor's push service", async () => {
    const deployed = await deployedHandler();
    const browser = browserSubscription({ url: 'https://updates.push.services.mozilla.com/wpush/v2' });
    const worker = await createTestWorker();

    const res = await invoke(deployed, withBearer(withBody(sample, browser.json), await workerToken(worker.id)));

    expect(res.status).toBe(201);
    expect(await pushSubscriptionsRepo.personOf(browser.endpoint)).toEqual({ role: 'worker', userId: worker.id });
  });
});
