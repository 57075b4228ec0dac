import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { toStreamRecord } from '../../infra/local/dynamo-stream';
import { counter, keys, tallyEntity, type TallyItem } from '../../shared/entities';
import { dynamo, tableName } from '../common/clients';
import { newId } from '../common/ids';
import { handlerModule } from '../testing/handlers';
import { privateDay } from '../testing/analytics';
import { stats } from '../owner/data/stats';
import { notificationsRepo } from '../realtime/data/notifications';
import { pushSubscriptionsRepo } from '../realtime/data/push-subscriptions';
import { browserSubscription, startFakePushService } from '../testing/fake-push-service';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';

const { handler } = await handlerModule<{ handler: (event: Pick<DynamoDBStreamEvent, 'Records'>) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }> }>('follow-table-changes');
const sample = JSON.parse(readFileSync(new URL('../../events/follow-table-changes.json', import.meta.url), 'utf8')) as DynamoDBStreamEvent;
const pushService = await startFakePushService();
afterAll(() => pushService.close());

async function storedTally(counts: TallyItem['counts']): Promise<DynamoDBRecord> {
  const item: TallyItem = { ...tallyEntity.key(newId()), entity: 'tally', counts };
  await dynamo.send(new PutCommand({ TableName: tableName, Item: item }));
  return toStreamRecord({ tableName, key: { pk: { S: item.pk }, sk: { S: item.sk } }, before: undefined, after: marshall(item) }) as DynamoDBRecord;
}

async function storedOffer(workerId: string): Promise<DynamoDBRecord> {
  const stored = await notificationsRepo.add('worker', workerId, {
    id: newId(),
    timestamp: new Date().toISOString(),
    type: 'job_created',
    title: 'New job offer',
    message: 'Plumbing, 1.2 km away.',
    priority: 'high',
    actionUrl: '/worker/dashboard',
    jobId: newId(),
  });
  const key = keys.notification('worker', workerId, stored.timestamp, stored.id);
  const raw = await dynamo.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: key.pk }, sk: { S: key.sk } } }));
  return toStreamRecord({ tableName, key: { pk: { S: key.pk }, sk: { S: key.sk } }, before: undefined, after: raw.Item }) as DynamoDBRecord;
}

describe('follow-table-changes (the table stream’s second reader)', () => {
  it('takes its sample event, a tally and an urgent notification, without failing a record', async () => {
    // Act
    const result = await handler(sample);

    // Assess
    expect(result).toEqual({ batchItemFailures: [] });
  });

  it('counts the tallies and pushes the urgent notifications of one mixed batch, and a retried batch repeats neither', async () => {
    // Prepare: a tally and an offer for a pro whose browser has push on
    const day = privateDay();
    const workerId = newId();
    const browser = browserSubscription(pushService);
    await pushSubscriptionsRepo.save({ role: 'worker', userId: workerId }, { endpoint: browser.endpoint, ...browser.json.keys }, new Date().toISOString());
    const records = [await storedTally({ [`DAY#${day}`]: { [counter.payments]: 1 } }), await storedOffer(workerId)];

    // Act: the batch, then the same batch again (a retry)
    const first = await handler({ Records: records });
    const again = await handler({ Records: records });

    // Assess
    expect([first, again]).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    const [dayItem] = await stats.days(day, day);
    expect(dayItem?.[counter.payments]).toBe(1);
    expect(pushService.received.filter((m) => m.path === browser.path)).toHaveLength(1);
  });
});
