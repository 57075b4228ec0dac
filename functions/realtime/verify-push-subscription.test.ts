import { describe, expect, it } from 'vitest';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { newId } from '../common/ids';
import { markIssued } from '../testing/customers';
import { invoke, sampleEvent, withBody, withCookies } from '../testing/events';
import { browserSubscription } from '../testing/fake-push-service';
import { createTestWorker, withBearer, workerToken } from '../testing/workers';
import { handler } from './verify-push-subscription';

const sample = sampleEvent('verify-push-subscription');
const service = { url: 'https://push.example.test' };
/** Sent by the customer `customerId`, an identity the server issued (as their first booking would have). */
const asCustomer = async (event: typeof sample, customerId: string) => withCookies(event, [await markIssued(customerId)]);

async function subscribed(customerId: string, expirationTime?: number) {
  const browser = browserSubscription(service);
  const json = browser.json;
  await pushSubscriptionsRepo.save({ role: 'customer', userId: customerId }, { endpoint: json.endpoint, ...json.keys, expirationTime }, new Date().toISOString());
  return browser;
}

describe('POST /api/push/verify-subscription', () => {
  it("answers { valid: true } for this browser's subscription stored for the caller", async () => {
    const customerId = newId();
    const browser = await subscribed(customerId);

    const res = await invoke(handler, await asCustomer(withBody(sample, { endpoint: browser.endpoint }), customerId));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ valid: true });
  });

  it('answers 404 for an endpoint never stored, so the client removes it locally', async () => {
    const res = await invoke(handler, await asCustomer(withBody(sample, { endpoint: browserSubscription(service).endpoint }), newId()));

    expect(res.status).toBe(404);
  });

  it('answers 404 when the subscription belongs to another person (a worker now signed in on a customer-subscribed browser)', async () => {
    // Prepare
    const customerId = newId();
    const browser = await subscribed(customerId);
    const worker = await createTestWorker();

    // Act
    const res = await invoke(handler, withBearer(await asCustomer(withBody(sample, { endpoint: browser.endpoint }), customerId), await workerToken(worker.id)));

    // Assess
    expect(res.status).toBe(404);
  });

  it('answers 404 once the expiry its push service gave has passed', async () => {
    const customerId = newId();
    const browser = await subscribed(customerId, Date.now() - 1000);

    const res = await invoke(handler, await asCustomer(withBody(sample, { endpoint: browser.endpoint }), customerId));

    expect(res.status).toBe(404);
  });

  it('answers 401 to nobody (the sample event)', async () => {
    const res = await invoke(handler, sample);

    expect(res.status).toBe(401);
  });
});
