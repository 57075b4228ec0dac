import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { keys } from '../../shared/entities';
import { toStreamRecord } from '../../infra/local/dynamo-stream';
import { deliverPush, urgentNotification } from './deliver-push';
import { dynamo, tableName } from '../common/clients';
import { notificationsRepo, type NewNotification } from './data/notifications';
import { pushDeliveriesRepo, SENDING_LEASE_SECONDS } from './data/push-deliveries';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { newId } from '../common/ids';
import { browserSubscription, startFakePushService } from '../testing/fake-push-service';
import type { RealtimeRole } from '../../shared/realtime';

const pushService = await startFakePushService();
afterAll(() => pushService.close());
afterEach(() => {
  pushService.answer = () => 201;
});

const sample = JSON.parse(readFileSync(new URL('../../events/deliver-push.json', import.meta.url), 'utf8')) as DynamoDBStreamEvent;

const offer: NewNotification = {
  type: 'job_created',
  title: 'New job offer',
  message: 'Plumbing, 1.2 km away. Accept within 2 minutes.',
  priority: 'high',
  actionUrl: '/worker/dashboard',
  jobId: 'job123',
};

async function subscribedBrowser(role: RealtimeRole, userId: string) {
  const browser = browserSubscription(pushService);
  await pushSubscriptionsRepo.save({ role, userId }, { endpoint: browser.endpoint, ...browser.json.keys }, new Date().toISOString());
  return browser;
}

/** A notification stored as notify() stores it, and the stream record its put makes (read back from the table). */
async function storedRecord(role: RealtimeRole, userId: string, input: NewNotification) {
  const stored = await notificationsRepo.add(role, userId, { ...input, id: newId(), timestamp: new Date().toISOString() });
  const key = keys.notification(role, userId, stored.timestamp, stored.id);
  const raw = await dynamo.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: key.pk }, sk: { S: key.sk } } }));
  return toStreamRecord({ tableName, key: { pk: { S: key.pk }, sk: { S: key.sk } }, before: undefined, after: raw.Item })!;
}

const received = (path: string) => pushService.received.filter((m) => m.path === path);

describe('deliver-push', () => {
  it("pushes a new high-priority notification to the person's browser, readable only with its keys", async () => {
    // Prepare
    const workerId = newId();
    const browser = await subscribedBrowser('worker', workerId);
    const record = await storedRecord('worker', workerId, offer);

    // Act
    const result = await deliverPush({ Records: [record] } as DynamoDBStreamEvent);

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    const [message] = received(browser.path);
    expect(JSON.parse(browser.decrypt(message!.body))).toEqual({ title: offer.title, body: offer.message, url: '/worker/dashboard', tag: 'job-job123' });
    expect(message!.headers.urgency).toBe('normal');
  });

  it('sends a critical notification with high urgency', async () => {
    // Prepare
    const workerId = newId();
    const browser = await subscribedBrowser('worker', workerId);
    const record = await storedRecord('worker', workerId, { ...offer, type: 'system_alert', title: 'Strike recorded', priority: 'critical' });

    // Act
    await deliverPush({ Records: [record] } as DynamoDBStreamEvent);

    // Assess
    expect(received(browser.path)[0]!.headers.urgency).toBe('high');
  });

  it('pushes nothing for low and medium notifications, updates, removals or other items', async () => {
    // Prepare
    const customerId = newId();
    const browser = await subscribedBrowser('customer', customerId);
    const medium = await storedRecord('customer', customerId, { ...offer, priority: 'medium' });
    const high = await storedRecord('customer', customerId, offer);
    const modified = { ...high, eventName: 'MODIFY' as const };
    const removed = { ...high, eventName: 'REMOVE' as const, dynamodb: { ...high.dynamodb, NewImage: undefined } };
    const otherEntity = { ...high, dynamodb: { ...high.dynamodb, NewImage: { ...high.dynamodb.NewImage, entity: { S: 'job' } } } };

    // Act
    const result = await deliverPush({ Records: [medium, modified, removed, otherEntity] } as unknown as DynamoDBStreamEvent);

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    expect(received(browser.path)).toHaveLength(0);
  });

  it('forgets a browser whose push service answers 410 Gone', async () => {
    // Prepare
    const workerId = newId();
    const browser = await subscribedBrowser('worker', workerId);
    pushService.answer = () => 410;
    const record = await storedRecord('worker', workerId, offer);

    // Act
    const result = await deliverPush({ Records: [record] } as DynamoDBStreamEvent);

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    expect(await pushSubscriptionsRepo.listFor({ role: 'worker', userId: workerId })).toHaveLength(0);
    expect(received(browser.path)).toHaveLength(1);
  });

  it('hands every record back to the stream for a retry when the VAPID secret cannot be read, sending nothing', async () => {
    // Prepare: a fresh container told a secret id that names nothing (yet).
    const workerId = newId();
    const browser = await subscribedBrowser('worker', workerId);
    const record = await storedRecord('worker', workerId, offer);
    vi.resetModules();
    vi.stubEnv('VAPID_SECRET_ID', 'marketplace/local/vapid-not-created-yet');
    const fresh = (await import('./deliver-push')).deliverPush;
    vi.unstubAllEnvs();

    // Act
    const result = await fresh({ Records: [record] } as DynamoDBStreamEvent);

    // Assess
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber }] });
    expect(received(browser.path)).toEqual([]);
  });

  it('pushes a notification once when its record comes again (a stream retry or a replayed failed batch)', async () => {
    // Prepare
    const workerId = newId();
    const browser = await subscribedBrowser('worker', workerId);
    const record = await storedRecord('worker', workerId, offer);
    await deliverPush({ Records: [record] } as DynamoDBStreamEvent);

    // Act
    const [again, racing] = await Promise.all([
      deliverPush({ Records: [record] } as DynamoDBStreamEvent),
      deliverPush({ Records: [record] } as DynamoDBStreamEvent),
    ]);

    // Assess
    expect(again).toEqual({ batchItemFailures: [] });
    expect(racing).toEqual({ batchItemFailures: [] });
    expect(received(browser.path)).toHaveLength(1);
  });

  it('sends the push after all when a run that claimed it died before sending and its claim lapsed', async () => {
    // Prepare: a claim left behind by a container that stopped mid-send, its lease run out
    const workerId = newId();
    const browser = await subscribedBrowser('worker', workerId);
    const record = await storedRecord('worker', workerId, offer);
    const { id } = urgentNotification(record)!;
    expect(await pushDeliveriesRepo.claim(id)).toBe(true);
    vi.useFakeTimers({ now: Date.now() + (SENDING_LEASE_SECONDS + 1) * 1000, toFake: ['Date'] });

    // Act
    const result = await deliverPush({ Records: [record] } as DynamoDBStreamEvent);
    vi.useRealTimers();

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    expect(received(browser.path)).toHaveLength(1);
  });

  it('leaves a push being sent by another run alone while its claim holds', async () => {
    // Prepare
    const workerId = newId();
    const browser = await subscribedBrowser('worker', workerId);
    const record = await storedRecord('worker', workerId, offer);
    expect(await pushDeliveriesRepo.claim(urgentNotification(record)!.id)).toBe(true);

    // Act
    const result = await deliverPush({ Records: [record] } as DynamoDBStreamEvent);

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
    expect(received(browser.path)).toHaveLength(0);
  });

  it('reads its sample event as an urgent notification for the worker it names', () => {
    // Act
    const notification = urgentNotification(sample.Records[0]!);

    // Assess
    expect(notification).toMatchObject({ role: 'worker', userId: 'WkR1a2b3c4d5e6f7g8h9iJ', url: '/worker/dashboard', tag: 'job-AbCdEfGhIjKlMnOpQrStUv', urgency: 'normal' });
  });

  it('never turns an action link into an outside address', async () => {
    // Prepare
    const record = await storedRecord('worker', newId(), { ...offer, actionUrl: 'https://evil.example/phish' });

    // Act
    const notification = urgentNotification(record);

    // Assess
    expect(notification?.url).toBe('/');
  });
});
