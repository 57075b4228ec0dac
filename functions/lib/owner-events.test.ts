import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { toStreamRecord } from '../../infra/local/dynamo-stream';
import type { NotificationView } from '../../shared/realtime';
import { keys } from '../../shared/table';
import { handler as deliverPush } from '../deliver-push';
import { dynamo, tableName } from './clients';
import { connectionsRepo } from './data/connections';
import { notificationsRepo } from './data/notifications';
import { newId } from './ids';
import {
  documentAwaitingReview,
  jobWithNoPro,
  newCompanyApplication,
  newWorkerApplication,
  ownerConsoleUrl,
  paymentFailed,
  strikeAppealed,
  strikeRecorded,
} from './owner-events';
import { pushSubscriptionsRepo } from './data/push-subscriptions';
import { OWNER_PUSH_ID } from './push-caller';
import { browserSubscription, startFakePushService } from './testing/fake-push-service';
import { framesOf, openTestConnection } from './testing/sockets';

const pushService = await startFakePushService();
afterAll(() => pushService.close());

/** The owner's stored notifications whose message names `marker` (other test files tell the owner too). */
async function ownersAbout(marker: string): Promise<NotificationView[]> {
  return (await notificationsRepo.latest('owner', OWNER_PUSH_ID)).filter((n) => n.message.includes(marker));
}

describe('owner events', () => {
  it('stores each event as one high-priority notification for the owner, linking to the console tab where it is handled', async () => {
    // Prepare
    const marker = `Marker ${newId()}`;
    const jobId = newId();

    // Act
    await newWorkerApplication({ id: newId(), fullName: `${marker} Worker`, servicesProvided: ['plumbing'] });
    await newCompanyApplication({ id: newId(), companyName: `${marker} Company` });
    await documentAwaitingReview({ id: newId(), categoryName: 'Form W-9', workerName: `${marker} Uploader` });
    await jobWithNoPro({ id: jobId, service: `${marker} Plumbing` });
    await strikeRecorded({ workerId: newId(), workerName: `${marker} Struck`, reason: 'Did not arrive' });
    await strikeAppealed({ workerId: newId(), workerName: `${marker} Appealing` });
    await paymentFailed({ invoiceId: newId(), jobId, amount: 12_345, service: `${marker} Electrical` });

    // Assess
    const told = await ownersAbout(marker);
    const byTitle = Object.fromEntries(told.map((n) => [n.title, n]));
    expect(told).toHaveLength(7);
    expect(byTitle['New worker application']).toMatchObject({ actionUrl: ownerConsoleUrl.applications, read: false });
    expect(byTitle['New company application']).toMatchObject({ actionUrl: ownerConsoleUrl.applications });
    expect(byTitle['Document awaiting review']).toMatchObject({ actionUrl: ownerConsoleUrl.documents });
    expect(byTitle['Job with no pro']).toMatchObject({ actionUrl: ownerConsoleUrl.job(jobId), jobId });
    expect(byTitle['Strike recorded']).toMatchObject({ actionUrl: ownerConsoleUrl.workers });
    expect(byTitle['Strike appealed']).toMatchObject({ actionUrl: ownerConsoleUrl.workers });
    expect(byTitle['Payment failed']).toMatchObject({ actionUrl: ownerConsoleUrl.job(jobId), jobId });
    expect(byTitle['Payment failed']!.message).toContain('$123.45');
    // High priority: each also goes out as web push to the browsers the owner enabled it on.
    expect(told.every((n) => n.priority === 'high')).toBe(true);
  });

  it('tells the owner alone: the worker a strike is about gets nothing from it', async () => {
    // Prepare
    const workerId = newId();
    const marker = `Marker ${newId()}`;

    // Act
    await strikeRecorded({ workerId, workerName: marker, reason: 'Late twice' });
    await strikeAppealed({ workerId, workerName: marker });

    // Assess
    expect(await ownersAbout(marker)).toHaveLength(2);
    expect(await notificationsRepo.latest('worker', workerId)).toEqual([]);
    expect(await notificationsRepo.latest('customer', workerId)).toEqual([]);
  });

  it("sends the notification live to every console connected to the owner's channel", async () => {
    // Prepare
    const connectionId = await openTestConnection();
    await connectionsRepo.open(connectionId, { owner: true }, new Date().toISOString());
    const marker = `Marker ${newId()}`;

    // Act
    await newWorkerApplication({ id: newId(), fullName: marker });

    // Assess
    const frames = await framesOf(connectionId);
    const live = frames.filter((f) => f.event === 'notification' && f.data.message.includes(marker));
    expect(live).toHaveLength(1);
    expect(live[0]!.data).toMatchObject({ title: 'New worker application', actionUrl: ownerConsoleUrl.applications });
  });

  it('goes out as web push to a browser the owner enabled push on, opening the console tab', async () => {
    // Prepare
    const browser = browserSubscription(pushService);
    await pushSubscriptionsRepo.save({ role: 'owner', userId: OWNER_PUSH_ID }, { endpoint: browser.endpoint, ...browser.json.keys }, new Date().toISOString());
    const companyName = `Pushed ${newId()}`;
    await newCompanyApplication({ id: newId(), companyName });
    const [stored] = await ownersAbout(companyName);
    // The table's stream hands deliver-push the stored notification (locally, infra/local/dynamo-stream.ts).
    const key = keys.notification('owner', OWNER_PUSH_ID, stored!.timestamp, stored!.id);
    const item = await dynamo.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: key.pk }, sk: { S: key.sk } } }));
    const record = toStreamRecord({ tableName, key: { pk: { S: key.pk }, sk: { S: key.sk } }, before: undefined, after: item.Item })!;

    // Act
    await deliverPush({ Records: [record] } as DynamoDBStreamEvent);

    // Assess
    const [message] = pushService.received.filter((m) => m.path === browser.path);
    expect(JSON.parse(browser.decrypt(message!.body))).toMatchObject({ title: 'New company application', url: ownerConsoleUrl.applications });
  });

  it('keeps free text to one short line, so a long reason cannot flood the bell or a push', async () => {
    // Prepare
    const marker = `Marker ${newId()}`;

    // Act
    await strikeRecorded({ workerId: newId(), workerName: marker, reason: `line one\n\n${'x'.repeat(500)}` });

    // Assess
    const [told] = await ownersAbout(marker);
    expect(told!.message).not.toContain('\n');
    expect(told!.message.length).toBeLessThan(300);
  });
});
