import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../clients';

type Key = { pk: string; sk: string };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * BatchGetItem over any number of keys (100 per call), retrying what DynamoDB leaves unprocessed.
 * Order is not kept; missing items are left out.
 */
export async function batchGet<T>(all: readonly Key[], consistent = false): Promise<T[]> {
  const found: T[] = [];
  for (let i = 0; i < all.length; i += 100) {
    let pending: Key[] = all.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await pause(Math.min(1000, 25 * 2 ** attempt));
      const out = await dynamo.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: consistent } } }),
      );
      found.push(...((out.Responses?.[tableName] ?? []) as T[]));
      pending = (out.UnprocessedKeys?.[tableName]?.Keys ?? []) as Key[];
    }
  }
  return found;
}

/** BatchWriteItem of puts and deletes (25 per call), retrying what DynamoDB leaves unprocessed. */
export async function batchWrite(puts: readonly Key[], deletes: readonly Key[]): Promise<void> {
  type Request = { PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: { Key: Key } };
  const requests: Request[] = [
    ...puts.map((Item) => ({ PutRequest: { Item: Item as unknown as Record<string, unknown> } })),
    ...deletes.map((Key) => ({ DeleteRequest: { Key } })),
  ];
  for (let i = 0; i < requests.length; i += 25) {
    let pending = requests.slice(i, i + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await pause(Math.min(1000, 25 * 2 ** attempt));
      const out = await dynamo.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = (out.UnprocessedItems?.[tableName] ?? []) as Request[];
    }
  }
}
