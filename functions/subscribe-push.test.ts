import { describe, expect, it } from 'vitest';
import { pushSubscriptionsRepo } from './lib/data/push-subscriptions';
import { newId } from './lib/ids';
import { invoke, sampleEvent, withBody, withCookies } from './lib/testing/events';
import { browserSubscription } from './lib/testing/fake-push-service';
import { ownerTestSession } from './lib/testing/owner';
import { createTestWorker, withBearer, workerToken } from './lib/testing/workers';
import { handler } from './subscribe-push';

const sample = sampleEvent('subscribe-push');
const service = { url: 'https://push.example.test' };
const asCustomer = (event: typeof sample, customerId: string) => withCookies(event, [`customer_id=${customerId}`]);

describe('POST /api/push/subscribe', () => {
  it("stores the browser's subscription for the customer with its keys and user agent, answering 201", async () => {
    // Prepare
    const customerId = newId();
    const browser = browserSubscription(service);

    // Act
    const res = await invoke(handler, asCustomer(withBody(sample, { ...browser.json, userAgent: 'Firefox/140' }), customerId));

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
    await invoke(handler, asCustomer(withBody(sample, first.json), customerId));

    // Act
    const res = await invoke(handler, asCustomer(withBody(sample, { ...renewed.json, endpoint: first.endpoint }), customerId));

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
    await invoke(handler, asCustomer(withBody(sample, browser.json), customerId));

    // Act: the browser still carries the customer cookie; the token comes first.
    const res = await invoke(handler, withBearer(asCustomer(withBody(sample, browser.json), customerId), await workerToken(worker.id)));

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
    const event = asCustomer(withBody(sample, browser.json), customerId);

    const results = await Promise.all([invoke(handler, event), invoke(handler, event)]);

    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(await pushSubscriptionsRepo.listFor({ role: 'customer', userId: customerId })).toHaveLength(1);
  });

  it("refuses a subscription without both encryption keys with 'Missing subscription keys'", async () => {
    const browser = browserSubscription(service);

    const noAuth = await invoke(handler, asCustomer(withBody(sample, { ...browser.json, keys: { p256dh: browser.json.keys.p256dh } }), newId()));
    const noKeys = await invoke(handler, asCustomer(withBody(sample, { endpoint: browser.endpoint }), newId()));

    expect(noAuth.status).toBe(400);
    expect(noAuth.body.message).toBe('Missing subscription keys');
    expect(noKeys.status).toBe(400);
    expect(noKeys.body.message).toBe('Missing subscription keys');
    expect(await pushSubscriptionsRepo.personOf(browser.endpoint)).toBeUndefined();
  });

  it('refuses an endpoint that is not a push service URL', async () => {
    const browser = browserSubscription(service);

    const res = await invoke(handler, asCustomer(withBody(sample, { ...browser.json, endpoint: 'http://example.com/push/x' }), newId()));

    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty('endpoint');
  });

  it('answers 401 to nobody (the sample event) and stores nothing', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(401);
    expect(await pushSubscriptionsRepo.personOf(JSON.parse(sample.body!).endpoint)).toBeUndefined();
  });
});
