import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { counter, statsEntity, tallyEntity, type TallyItem } from '../../shared/entities';
import { ensureTable, localDynamoClient, startDynalite } from './dynamo';
import { LOCAL_TABLE, startLocalStack, type LocalStack } from './stack';

const dataDir = mkdtempSync(path.join(tmpdir(), 'marketplace-leftovers-'));
let stack: LocalStack | undefined;

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start after a run stopped before its stream was through', () => {
  it('counts the tallies the last run left uncounted, once, and removes them', async () => {
    // Prepare: three tallies in the table, as a run killed before its stream delivered them leaves them
    const day = '1999-04-01';
    const offline = await startDynalite(path.join(dataDir, 'dynamodb'));
    const client = localDynamoClient(offline.endpoint);
    await ensureTable(client, LOCAL_TABLE);
    const doc = DynamoDBDocumentClient.from(client);
    const ids = ['left-1', 'left-2', 'left-3'];
    for (const id of ids) {
      const tally: TallyItem = { ...tallyEntity.key(id), entity: 'tally', counts: { [`DAY#${day}`]: { [counter.funnel('sent')]: 1 } } };
      await doc.send(new PutCommand({ TableName: LOCAL_TABLE, Item: tally }));
    }
    client.destroy();
    await offline.close();

    // Act
    stack = await startLocalStack({ port: 0, dataDir, web: false });

    // Assess
    const reader = DynamoDBDocumentClient.from(localDynamoClient(stack.dynamoEndpoint));
    const dayItem = await reader.send(new GetCommand({ TableName: LOCAL_TABLE, Key: statsEntity.key(`DAY#${day}`), ConsistentRead: true }));
    const left = await Promise.all(ids.map((id) => reader.send(new GetCommand({ TableName: LOCAL_TABLE, Key: tallyEntity.key(id), ConsistentRead: true }))));
    reader.destroy();
    expect(dayItem.Item?.[counter.funnel('sent')]).toBe(3);
    expect(left.map((out) => out.Item)).toEqual([undefined, undefined, undefined]);
  });
});
