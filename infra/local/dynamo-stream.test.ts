import { DeleteItemCommand, PutItemCommand, UpdateItemCommand, BatchWriteItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { urgentNotificationRecords } from '../../shared/realtime/routes';
import { ensureTable, localDynamoClient, startDynalite, type LocalDynamo } from './dynamo';
import { couldMatch, localStream, matchesFilter, toStreamRecord, type ItemChange, type StreamRecord } from './dynamo-stream';

const TABLE = 'stream-test';
let dynamo: LocalDynamo;
let client: ReturnType<typeof localDynamoClient>;
let changes: ItemChange[] = [];

beforeAll(async () => {
  dynamo = await startDynalite(undefined, (batch) => changes.push(...batch));
  client = localDynamoClient(dynamo.endpoint);
  await ensureTable(client, TABLE);
});
afterAll(async () => {
  client.destroy();
  await dynamo.close();
});
beforeEach(() => {
  changes = [];
});

const key = (id: string) => ({ pk: { S: `THING#${id}` }, sk: { S: 'THING' } });
const item = (id: string, extra: Record<string, unknown> = {}) => ({ ...key(id), entity: { S: 'thing' }, ...extra });
const events = () => changes.map(toStreamRecord).filter(Boolean).map((r) => r!.eventName);

describe("the local table stream (dynalite's front)", () => {
  it('reports a put of a new item as INSERT with its new image, and a second put of it as MODIFY', async () => {
    // Act
    await client.send(new PutItemCommand({ TableName: TABLE, Item: item('a', { n: { N: '1' } }) }));
    await client.send(new PutItemCommand({ TableName: TABLE, Item: item('a', { n: { N: '2' } }) }));

    // Assess
    expect(events()).toEqual(['INSERT', 'MODIFY']);
    const record = toStreamRecord(changes[1]!)!;
    expect(record.dynamodb.Keys).toEqual(key('a'));
    expect(record.dynamodb.NewImage).toEqual(item('a', { n: { N: '2' } }));
    expect(record.dynamodb.StreamViewType).toBe('NEW_IMAGE');
  });

  it('reports updates and deletes, with the image after the update and none after the delete', async () => {
    // Prepare
    await client.send(new PutItemCommand({ TableName: TABLE, Item: item('b') }));
    changes = [];

    // Act
    await client.send(new UpdateItemCommand({ TableName: TABLE, Key: key('b'), UpdateExpression: 'SET done = :t', ExpressionAttributeValues: { ':t': { BOOL: true } } }));
    await client.send(new DeleteItemCommand({ TableName: TABLE, Key: key('b') }));

    // Assess
    expect(events()).toEqual(['MODIFY', 'REMOVE']);
    expect(toStreamRecord(changes[0]!)!.dynamodb.NewImage).toMatchObject({ done: { BOOL: true } });
    expect(toStreamRecord(changes[1]!)!.dynamodb.NewImage).toBeUndefined();
  });

  it('reports nothing for a refused conditional write or a delete of a missing item', async () => {
    // Prepare
    await client.send(new PutItemCommand({ TableName: TABLE, Item: item('c') }));
    changes = [];

    // Act
    const refused = client.send(new PutItemCommand({ TableName: TABLE, Item: item('c'), ConditionExpression: 'attribute_not_exists(pk)' }));
    await expect(refused).rejects.toThrow();
    await client.send(new DeleteItemCommand({ TableName: TABLE, Key: key('never-there') }));

    // Assess
    expect(events()).toEqual([]);
  });

  it('reports each item of a batch write and of a transaction, and nothing of a cancelled transaction', async () => {
    // Act
    await client.send(new BatchWriteItemCommand({ RequestItems: { [TABLE]: [{ PutRequest: { Item: item('d1') } }, { PutRequest: { Item: item('d2') } }] } }));
    await client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName: TABLE, Item: item('e1') } },
          { Delete: { TableName: TABLE, Key: key('d1') } },
          { ConditionCheck: { TableName: TABLE, Key: key('d2'), ConditionExpression: 'attribute_exists(pk)' } },
        ],
      }),
    );
    const before = events().length;
    const cancelled = client.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName: TABLE, Item: item('f1') } },
          { Put: { TableName: TABLE, Item: item('e1'), ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
    await expect(cancelled).rejects.toThrow();

    // Assess
    expect(events()).toEqual(['INSERT', 'INSERT', 'INSERT', 'REMOVE']);
    expect(before).toBe(4);
  });
});

describe('matchesFilter', () => {
  const record = (image: Record<string, unknown>, eventName: StreamRecord['eventName'] = 'INSERT') =>
    toStreamRecord({ tableName: TABLE, key: key('x'), before: eventName === 'INSERT' ? undefined : key('x'), after: { ...key('x'), ...image } })!;
  const pushFilter = urgentNotificationRecords;

  it("passes deliver-push only new high and critical notifications, as the cloud's event filter would", () => {
    // Prepare
    const notification = (priority: string) => ({ entity: { S: 'notification' }, priority: { S: priority } });

    // Act
    const passed = {
      high: matchesFilter(pushFilter, record(notification('high'))),
      critical: matchesFilter(pushFilter, record(notification('critical'))),
      medium: matchesFilter(pushFilter, record(notification('medium'))),
      modified: matchesFilter(pushFilter, record(notification('high'), 'MODIFY')),
      job: matchesFilter(pushFilter, record({ entity: { S: 'job' }, priority: { S: 'high' } })),
      noPriority: matchesFilter(pushFilter, record({ entity: { S: 'notification' } })),
    };

    // Assess
    expect(passed).toEqual({ high: true, critical: true, medium: false, modified: false, job: false, noPriority: false });
  });

  it('matches a prefix rule on the start of a string only', () => {
    // Act
    const matched = [matchesFilter({ a: [{ prefix: 'NOTIF' }] }, { a: 'NOTIFS#1' }), matchesFilter({ a: [{ prefix: 'NOTIF' }] }, { a: 'X-NOTIF' })];

    // Assess
    expect(matched).toEqual([true, false]);
  });
});

describe('localStream', () => {
  it('hands each matching record to its consumer in the order written, and goes on after a consumer fails', async () => {
    // Prepare
    const seen: string[] = [];
    const logged: string[] = [];
    const onChange = localStream(
      [
        { name: 'flaky', filters: [{ eventName: ['INSERT'] }], deliver: async () => Promise.reject(new Error('boom')) },
        { name: 'recorder', filters: [{ eventName: ['INSERT', 'MODIFY'] }], deliver: async (e) => void seen.push(...e.Records.map((r) => r.eventName)) },
      ],
      (message) => logged.push(message),
    );

    // Act
    onChange([{ tableName: TABLE, key: key('g'), before: undefined, after: item('g') }]);
    onChange([{ tableName: TABLE, key: key('g'), before: item('g'), after: item('g', { n: { N: '1' } }) }]);
    onChange([{ tableName: TABLE, key: key('g'), before: item('g', { n: { N: '1' } }), after: undefined }]);
    await new Promise((resolve) => setTimeout(resolve, 50));

    // Assess
    expect(seen).toEqual(['INSERT', 'MODIFY']);
    expect(logged).toEqual(['[stream] flaky failed on a batch of 1 record(s): boom']);
  });

  it('hands what piled up during a delivery to each consumer as one batch, in the order written', async () => {
    // Prepare: a consumer slow on its first batch, while more writes come
    const batches: string[][] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const onChange = localStream([
      {
        name: 'slow',
        filters: [{ eventName: ['INSERT'] }],
        deliver: async (e) => {
          batches.push(e.Records.map((r) => String(r.dynamodb.Keys.pk.S)));
          if (batches.length === 1) await held;
        },
      },
    ]);

    // Act
    onChange([{ tableName: TABLE, key: key('a'), before: undefined, after: item('a') }]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const id of ['b', 'c', 'd']) onChange([{ tableName: TABLE, key: key(id), before: undefined, after: item(id) }]);
    release();
    await onChange.settled();

    // Assess
    expect(batches).toEqual([[key('a').pk.S], [key('b').pk.S, key('c').pk.S, key('d').pk.S]]);
  });
});

describe('couldMatch: which writes the front reads around', () => {
  const pushFilter = urgentNotificationRecords;
  const notification = (priority: string) => ({ ...key('n'), entity: { S: 'notification' }, priority: { S: priority } });

  it('reads around a put only when its item could pass a filter, never around a delete, always around an update', () => {
    // Act
    const wanted = {
      highNotification: couldMatch(pushFilter, { operation: 'PutItem', item: notification('high') }),
      mediumNotification: couldMatch(pushFilter, { operation: 'PutItem', item: notification('medium') }),
      job: couldMatch(pushFilter, { operation: 'PutItem', item: item('j') }),
      delete: couldMatch(pushFilter, { operation: 'DeleteItem' }),
      update: couldMatch(pushFilter, { operation: 'UpdateItem' }),
    };

    // Assess
    expect(wanted).toEqual({ highNotification: true, mediumNotification: false, job: false, delete: false, update: true });
  });

  it('still delivers what matches when the writes around it are skipped', async () => {
    // Prepare
    const delivered: StreamRecord[] = [];
    const own = await startDynalite(undefined, localStream([{ name: 'push', filters: [pushFilter], deliver: async ({ Records }) => delivered.push(...Records) }]));
    const ownClient = localDynamoClient(own.endpoint);
    await ensureTable(ownClient, TABLE);

    // Act
    await ownClient.send(new PutItemCommand({ TableName: TABLE, Item: item('skipped') }));
    await ownClient.send(new PutItemCommand({ TableName: TABLE, Item: notification('medium') }));
    await ownClient.send(new DeleteItemCommand({ TableName: TABLE, Key: key('skipped') }));
    await ownClient.send(new PutItemCommand({ TableName: TABLE, Item: { ...notification('critical'), ...key('c') } }));
    await ownClient.send(new UpdateItemCommand({ TableName: TABLE, Key: key('u'), UpdateExpression: 'SET entity = :e, priority = :p', ExpressionAttributeValues: { ':e': { S: 'notification' }, ':p': { S: 'high' } } }));
    await expect.poll(() => delivered.length).toBe(2);

    // Assess
    expect(delivered.map((r) => r.dynamodb.Keys.pk.S)).toEqual(['THING#c', 'THING#u']);
    ownClient.destroy();
    await own.close();
  });
});
