import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../clients';
import { newId } from '../ids';
import { writeTogether, WriteCancelled } from './transact';

const key = () => ({ pk: `TEST#${newId()}`, sk: 'TEST' });
const read = async (k: Record<string, string>) =>
  (await dynamo.send(new GetCommand({ TableName: tableName, Key: k, ConsistentRead: true }))).Item;

describe('writeTogether', () => {
  it('writes every action when every condition holds', async () => {
    const [a, b] = [key(), key()];

    await writeTogether([
      { Put: { TableName: tableName, Item: { ...a, n: 1 }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName, Item: { ...b, n: 2 }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ]);

    expect((await read(a))?.n).toBe(1);
    expect((await read(b))?.n).toBe(2);
  });

  it('writes nothing when a later condition fails, and says which one', async () => {
    // Prepare
    const [a, b, c] = [key(), key(), key()];
    await writeTogether([{ Put: { TableName: tableName, Item: { ...b, n: 'old' } } }, { Put: { TableName: tableName, Item: { ...c, n: 'kept' } } }]);

    // Act
    const error = await writeTogether([
      { Put: { TableName: tableName, Item: { ...a, n: 1 }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Update: { TableName: tableName, Key: b, UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': 'new' } } },
      { Put: { TableName: tableName, Item: { ...c, n: 3 }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ]).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(WriteCancelled);
    expect((error as WriteCancelled).refusedAt(2)).toBe(true);
    expect((error as WriteCancelled).refusedAt(0)).toBe(false);
    expect(await read(a)).toBeUndefined();
    expect((await read(b))?.n).toBe('old');
    expect((await read(c))?.n).toBe('kept');
  });

  it('lets exactly one of two racing transactions on the same claim through', async () => {
    // Prepare
    const claim = key();
    const attempt = (n: number) =>
      writeTogether([
        { Put: { TableName: tableName, Item: { ...claim, by: n }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: tableName, Item: { ...key(), by: n } } },
      ]);

    // Act
    const results = await Promise.allSettled([attempt(1), attempt(2), attempt(3)]);

    // Assess
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof WriteCancelled)).toBe(true);
  });

  it('checks a condition without writing, and leaves no trace of a check on a missing item', async () => {
    const [absent, target] = [key(), key()];

    await writeTogether([
      { ConditionCheck: { TableName: tableName, Key: absent, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName, Item: { ...target, n: 1 } } },
    ]);

    expect(await read(absent)).toBeUndefined();
    expect((await read(target))?.n).toBe(1);
  });
});
