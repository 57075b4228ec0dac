import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { newId } from '../common/ids';
import { browserSubscription, startFakePushService } from '../testing/fake-push-service';
import { pushBody, pushTo } from './push';

const pushService = await startFakePushService();
afterAll(() => pushService.close());
afterEach(() => {
  pushService.answer = () => 201;
  pushService.delayMs = 0;
});

const payload = { title: 'Worker assigned', body: 'Sam is on the way.', url: '/client-dashboard', tag: 'job-1' };

async function subscribedBrowsers(userId: string, count: number) {
  const browsers = Array.from({ length: count }, () => browserSubscription(pushService));
  for (const b of browsers) {
    await pushSubscriptionsRepo.save({ role: 'worker', userId }, { endpoint: b.endpoint, ...b.json.keys }, new Date().toISOString());
  }
  return browsers;
}

describe('pushTo', () => {
  it("sends to all of the person's subscriptions at once, not one after another", async () => {
    // Prepare
    const userId = newId();
    const browsers = await subscribedBrowsers(userId, 3);
    pushService.delayMs = 200;
    pushService.maxInFlight = 0;

    // Act
    const outcome = await pushTo('worker', userId, payload);

    // Assess
    expect(outcome).toEqual({ sent: 3, removed: 0, failed: 0 });
    expect(pushService.maxInFlight).toBe(3);
    for (const b of browsers) {
      const message = pushService.received.find((m) => m.path === b.path)!;
      expect(JSON.parse(b.decrypt(message.body))).toEqual(payload);
    }
  });

  it('deletes the subscriptions answered 404 or 410, keeps those that failed otherwise', async () => {
    // Prepare
    const userId = newId();
    const [notFound, gone, broken, fine] = await subscribedBrowsers(userId, 4);
    const status: Record<string, number> = { [notFound!.path]: 404, [gone!.path]: 410, [broken!.path]: 503, [fine!.path]: 201 };
    pushService.answer = (path) => status[path] ?? 201;

    // Act
    const outcome = await pushTo('worker', userId, payload);

    // Assess
    expect(outcome).toEqual({ sent: 1, removed: 2, failed: 1 });
    const left = (await pushSubscriptionsRepo.listFor({ role: 'worker', userId })).map((s) => s.endpoint).sort();
    expect(left).toEqual([broken!.endpoint, fine!.endpoint].sort());
  });

  it('counts an unreachable push service as failed and keeps the subscription', async () => {
    const userId = newId();
    const dead = browserSubscription({ url: 'http://127.0.0.1:9' });
    await pushSubscriptionsRepo.save({ role: 'worker', userId }, { endpoint: dead.endpoint, ...dead.json.keys }, new Date().toISOString());

    const outcome = await pushTo('worker', userId, payload);

    expect(outcome).toEqual({ sent: 0, removed: 0, failed: 1 });
    expect(await pushSubscriptionsRepo.listFor({ role: 'worker', userId })).toHaveLength(1);
  });

  it('sends nothing to a person without subscriptions', async () => {
    const before = pushService.received.length;

    const outcome = await pushTo('customer', newId(), payload);

    expect(outcome).toEqual({ sent: 0, removed: 0, failed: 0 });
    expect(pushService.received.length).toBe(before);
  });

  it('refuses to send without VAPID keys, saying so', async () => {
    // Prepare: a fresh container not told of any VAPID secret.
    vi.resetModules();
    vi.stubEnv('VAPID_SECRET_ID', undefined);
    const fresh = await import('./push');

    // Act
    const attempt = fresh.pushTo('customer', newId(), payload);

    // Assess
    await expect(attempt).rejects.toThrow(/not set up on this server \(no VAPID keys\)/);
    vi.unstubAllEnvs();
  });
});

describe('pushBody', () => {
  it('is the JSON the service worker reads, long texts clipped', () => {
    const body = JSON.parse(pushBody({ ...payload, body: 'x'.repeat(5000) }));

    expect(Object.keys(body)).toEqual(['title', 'body', 'url', 'tag']);
    expect(body.body).toHaveLength(1000);
    expect(body.body.endsWith('…')).toBe(true);
  });
});
