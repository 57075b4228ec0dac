import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../common/clients';
import { writeTogether } from '../common/data/transact';
import { newId } from '../common/ids';
import { watchTableWrites } from './table-writes';

const key = () => ({ pk: `TEST#${newId()}`, sk: 'TEST' });
const putNew = (k: Record<string, string>) => new PutCommand({ TableName: tableName, Item: { ...k, n: 1 }, ConditionExpression: 'attribute_not_exists(pk)' });

describe('table write counts (functions/testing/table-writes.ts)', () => {
  it('counts each write the functions send, refused ones too, and no reads', async () => {
    // Prepare
    const k = key();
    const writes = watchTableWrites();

    // Act
    await dynamo.send(putNew(k));
    await dynamo.send(putNew(k)).catch(() => undefined);
    await dynamo.send(new UpdateCommand({ TableName: tableName, Key: k, UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': 2 } }));
    await dynamo.send(new GetCommand({ TableName: tableName, Key: k }));
    writes.stop();

    // Assess
    expect(writes.commands).toEqual(['PutItemCommand', 'PutItemCommand', 'UpdateItemCommand']);
    expect(writes.sent).toBe(3);
    expect(writes.refused).toBe(1);
  });

  it('counts a transaction a condition cancelled as refused', async () => {
    // Prepare
    const k = key();
    await dynamo.send(putNew(k));
    const writes = watchTableWrites();

    // Act
    await writeTogether([{ Put: { TableName: tableName, Item: { ...k, n: 2 }, ConditionExpression: 'attribute_not_exists(pk)' } }]).catch(() => undefined);
    writes.stop();

    // Assess
    expect(writes.commands).toEqual(['TransactWriteItemsCommand']);
    expect(writes.refused).toBe(1);
  });

  it('counts nothing once stopped', async () => {
    // Prepare
    const writes = watchTableWrites();
    writes.stop();

    // Act
    await dynamo.send(putNew(key()));

    // Assess
    expect(writes.sent).toBe(0);
  });
});
