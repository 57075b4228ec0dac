import { afterEach, describe, expect, it, vi } from 'vitest';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { newId } from '../common/ids';
import { invoke, sampleEvent, withBody } from '../testing/events';
import { browserSubscription } from '../testing/fake-push-service';
import { handler } from './renew-push-subscription';

const sample = sampleEvent('renew-push-subscription');
// A browser vendor's push service: the only hosts a subscription may name (nothing is sent here).
const service = { url: 'https://fcm.googleapis.com/fcm/send' };

async function subscribedWorker(workerId: string) {
  const { json } = browserSubscription(service);
  await pushSubscriptionsRepo.save({ role: 'worker', userId: workerId }, { endpoint: json.endpoint, ...json.keys, userAgent: 'Firefox' }, new Date().toISOString());
  return json;
}

const renewal = (oldEndpoint: string, fresh = browserSubscription(service).json) => ({ oldEndpoint, endpoint: fresh.endpoint, keys: fresh.keys });

describe('POST /api/push/renew', () => {
  it('moves the person behind the old endpoint to the new subscription, without any login, and forgets the old one', async () => {
    // Prepare: a worker (bearer token, which the service worker never has) subscribed this browser.
    const workerId = newId();
    const old = await subscribedWorker(workerId);
    const body = renewal(old.endpoint);

    // Act
    const res = await invoke(handler, withBody(sample, body));

    // Assess
    expect(res.status).toBe(200);
    const stored = await pushSubscriptionsRepo.listFor({ role: 'worker', userId: workerId });
    expect(stored.map((s) => [s.endpoint, s.p256dhKey, s.authKey, s.userAgent])).toEqual([[body.endpoint, body.keys.p256dh, body.keys.auth, 'Firefox']]);
    expect(await pushSubscriptionsRepo.personOf(old.endpoint)).toBeUndefined();
  });

  it('answers 404 for an old endpoint nobody has, and stores nothing', async () => {
    // Prepare
    const body = renewal(browserSubscription(service).json.endpoint);

    // Act
    const res = await invoke(handler, withBody(sample, body));

    // Assess
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('Enable push again');
    expect(await pushSubscriptionsRepo.personOf(body.endpoint)).toBeUndefined();
  });

  it('refuses a renewal to the same endpoint, or without keys, with a message and no change', async () => {
    // Prepare
    const workerId = newId();
    const old = await subscribedWorker(workerId);

    // Act
    const same = await invoke(handler, withBody(sample, { oldEndpoint: old.endpoint, endpoint: old.endpoint, keys: old.keys }));
    const keyless = await invoke(handler, withBody(sample, { oldEndpoint: old.endpoint, endpoint: browserSubscription(service).json.endpoint }));

    // Assess
    expect(same.status).toBe(400);
    expect(keyless.status).toBe(400);
    expect(keyless.body.message).toContain('Missing subscription keys');
    expect((await pushSubscriptionsRepo.listFor({ role: 'worker', userId: workerId })).map((s) => s.endpoint)).toEqual([old.endpoint]);
  });
});

describe('POST /api/push/renew (anywhere but the local runtime)', () => {
  afterEach(() => {
    vi.doUnmock('../common/env');
    vi.resetModules();
  });

  it('refuses to move a subscription to an endpoint that is not a push service, keeping the old one', async () => {
    // Prepare
    const workerId = newId();
    const old = await subscribedWorker(workerId);
    vi.resetModules();
    vi.doMock('../common/env', async (importOriginal) => {
      const actual = await importOriginal<typeof import('../common/env')>();
      return { ...actual, env: { ...actual.env, LOCAL_RUNTIME: false }, secureCookies: true };
    });
    const deployed = (await import('./renew-push-subscription')).handler;

    // Act
    const res = await invoke(deployed, withBody(sample, renewal(old.endpoint, browserSubscription({ url: 'https://10.0.0.5' }).json)));

    // Assess
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty('endpoint');
    expect((await pushSubscriptionsRepo.listFor({ role: 'worker', userId: workerId })).map((s) => s.endpoint)).toEqual([old.endpoint]);
  });
});
