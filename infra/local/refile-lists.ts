import { ListTablesCommand, ScanCommand, type DynamoDBClient, type ScanCommandOutput } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentEntity, indexAttributes, invoiceEntity, jobEntity, workerEntity, type IndexName } from '../../shared/entities';

/** What is read here of an entity's access pattern (methods, so every pattern's builders fit). */
interface Pattern {
  index: IndexName;
  shards?: number;
  range(...args: unknown[]): { pk: string };
  shardOf?(key: { pk: string }): number;
}

/**
 * The write-sharded lists (shared/README.md) as a data folder made before them filed them: the old
 * one-partition key (`JOBS`) and the pattern that now spreads it over shards (`JOBS#<shard>`).
 */
const sharded = [jobEntity, workerEntity, invoiceEntity, documentEntity].flatMap((entity) =>
  (Object.values(entity.indexes) as Pattern[])
    .filter((pattern) => pattern.shards !== undefined)
    .map((pattern) => ({ entity: entity.name as string, partition: indexAttributes(pattern.index).partitionKey, old: pattern.range(0).pk.replace(/#0$/, ''), pattern })),
);

/**
 * A local data folder made before the lists were sharded keeps its items listed: at start, every
 * item still under an old one-partition key is moved to its shard (only that key changes). Straight
 * to dynalite, before the transaction front starts, as the index rebuild is, so the stream reports
 * no change. Answers how many items moved.
 */
export async function refileShardedLists(client: DynamoDBClient): Promise<number> {
  const doc = DynamoDBDocumentClient.from(client);
  let moved = 0;
  for (const tableName of (await client.send(new ListTablesCommand({}))).TableNames ?? []) {
    const writes: Record<string, unknown>[] = [];
    let start: ScanCommandOutput['LastEvaluatedKey'];
    do {
      const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
      for (const raw of page.Items ?? []) {
        const item = unmarshall(raw);
        const stale = sharded.filter((s) => item.entity === s.entity && item[s.partition] === s.old);
        if (stale.length === 0) continue;
        for (const s of stale) item[s.partition] = s.pattern.range(s.pattern.shardOf!(item as { pk: string })).pk;
        writes.push(item);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    for (let i = 0; i < writes.length; i += 25) {
      let pending: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> | undefined = {
        [tableName]: writes.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })),
      };
      while (pending && Object.keys(pending).length > 0) {
        pending = (await doc.send(new BatchWriteCommand({ RequestItems: pending }))).UnprocessedItems as typeof pending;
      }
    }
    moved += writes.length;
  }
  return moved;
}
