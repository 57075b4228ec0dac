import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateTableCommand, DescribeTableCommand, GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { table } from '../../shared/table';
import { ensureTable, localDynamoClient, startDynalite } from './dynamo';

const TABLE = 'indexes-test';

describe('a local data folder made before an index was added', () => {
  it('gets the missing index at the next start, keeping its items, and the index answers Queries', async () => {
    // Prepare: a table as an older build made it, without the last index, with an item in it.
    const root = mkdtempSync(path.join(tmpdir(), 'indexes-'));
    const dir = path.join(root, 'dynamodb');
    const older = table.indexes.slice(0, -1);
    const added = table.indexes.at(-1)!;
    const item = { pk: { S: 'THING#1' }, sk: { S: 'THING' }, [added.partitionKey]: { S: 'P' }, [added.sortKey]: { S: 'S' } };
    const first = await startDynalite(dir);
    const before = localDynamoClient(first.endpoint);
    const keyNames = [table.partitionKey, table.sortKey, ...older.flatMap((i) => [i.partitionKey, i.sortKey])];
    await before.send(
      new CreateTableCommand({
        TableName: TABLE,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: keyNames.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: table.partitionKey, KeyType: 'HASH' },
          { AttributeName: table.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: older.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
    await before.send(new PutItemCommand({ TableName: TABLE, Item: item }));
    before.destroy();
    await first.close();

    // Act: the next start.
    const second = await startDynalite(dir);
    const client = localDynamoClient(second.endpoint);
    try {
      await ensureTable(client, TABLE);

      // Assess
      const described = await client.send(new DescribeTableCommand({ TableName: TABLE }));
      expect(described.Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName).sort()).toEqual(table.indexes.map((i) => i.name).sort());
      expect((await client.send(new GetItemCommand({ TableName: TABLE, Key: { pk: item.pk, sk: item.sk } }))).Item).toEqual(item);
      const found = await client.send(
        new QueryCommand({
          TableName: TABLE,
          IndexName: added.name,
          KeyConditionExpression: '#p = :p',
          ExpressionAttributeNames: { '#p': added.partitionKey },
          ExpressionAttributeValues: { ':p': { S: 'P' } },
        }),
      );
      expect(found.Items?.map((i) => i.pk?.S)).toEqual(['THING#1']);
    } finally {
      client.destroy();
      await second.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
