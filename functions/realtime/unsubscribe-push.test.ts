import { describe, expect, it } from 'vitest';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { newId } from '../common/ids';
import { markIssued } from '../testing/customers';
import { invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { browserSubscription } from '../testing/fake-push-service';
import { handler } from './unsubscribe-push';

const sample = sampleEvent('unsubscribe-push');
const service = { url: 'https://push.example.test' };
/** Sent by the customer `customerId`, an identity the server issued (as their first booking would have). */
const asCustomer = async (event: typeof sample, customerId: string) => withCookies(event, [await markIssued(customerId)]);

async function subscribed(customerId: string) {
  const browser = browserSubscription(service);
  const json = browser.json;
  await pushSubscriptionsRepo.save({ role: 'customer', userId: customerId }, { endpoint: json.endpoint, ...json.keys }, new Date().toISOString());
  return browser;
}

describe('POST /api/push/unsubscribe', () => {
  it("removes the caller's subscription for this browser and only that one", async () => {
    // Prepare
    const customerId = newId();
    const leaving = await subscribed(customerId);
    const staying = await subscribed(customerId);

    // Act
    const res = await invoke(handler, await asCustomer(withBody(sample, { endpoint: leaving.endpoint }), customerId));

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await pushSubscriptionsRepo.personOf(leaving.endpoint)).toBeUndefined();
    expect((await pushSubscriptionsRepo.listFor({ role: 'customer', userId: customerId })).map((s) => s.endpoint)).toEqual([staying.endpoint]);
  });

  it('answers 404 for an endpoint that is not stored (the client ignores it), also when unsubscribing twice', async () => {
    const customerId = newId();
    const browser = await subscribed(customerId);
    const event = await asCustomer(withBody(sample, { endpoint: browser.endpoint }), customerId);
    await invoke(handler, event);

    const again = await invoke(handler, event);
    const unknown = await invoke(handler, await asCustomer(withBody(sample, { endpoint: browserSubscription(service).endpoint }), customerId));

    expect(again.status).toBe(404);
    expect(unknown.status).toBe(404);
  });

  it("answers 404 and keeps someone else's subscription", async () => {
    const owner = newId();
    const browser = await subscribed(owner);

    const res = await invoke(handler, await asCustomer(withBody(sample, { endpoint: browser.endpoint }), newId()));

    expect(res.status).toBe(404);
    expect(await pushSubscriptionsRepo.personOf(browser.endpoint)).toEqual({ role: 'customer', userId: owner });
  });

  it('answers 401 to nobody (the sample event)', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(401);
  });
});
