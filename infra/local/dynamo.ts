import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  BatchWriteItemCommand,
  DeleteTableCommand,
  ListTablesCommand,
  ResourceNotFoundException,
  ScanCommand,
  waitUntilTableExists,
  waitUntilTableNotExists,
  type BatchWriteItemCommandOutput,
  type ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import type { OnChange } from './dynamo-stream';
import { startTransactionFront } from './dynamo-transactions';
import { claimFolder } from './folder-claim';
import { catalogItems } from '../../functions/lib/data/items';
import { table } from '../../shared/table';

export interface LocalDynamo {
  endpoint: string;
  /** Transactions a killed process left half done, put back at this start. */
  recovered: number;
  close(): Promise<void>;
}

/**
 * dynalite on a free loopback port, behind the front that adds transactions; with `dir` its
 * LevelDB lives there and survives restarts; with `onChange` the front reports every item a write
 * changed (the table's stream, dynamo-stream.ts).
 */
export async function startDynalite(dir?: string, onChange?: OnChange): Promise<LocalDynamo> {
  if (dir) mkdirSync(dir, { recursive: true });
  const release = dir ? claimFolder(dir) : () => {};
  const server: Server = dynalite({ path: dir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  let front: Awaited<ReturnType<typeof startTransactionFront>>;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    await addMissingIndexes(`http://127.0.0.1:${port}`);
    // Beside LevelDB's folder, not in it: the transactions a killed process left half done.
    front = await startTransactionFront(`http://127.0.0.1:${port}`, onChange, dir ? `${dir}-journal` : undefined);
  } catch (error) {
    server.close();
    release();
    throw error;
  }
  return {
    endpoint: front.endpoint,
    recovered: front.recovered,
    close: async () => {
      await front.close();
      await new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        // dynalite closes its LevelDB with the server, flushing what was written.
        server.close((err) => (err ? reject(err) : resolve()));
      });
      release();
    },
  };
}

export function localDynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/** CreateTable from the same definition the CDK table uses (shared/table.ts). */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await createTable(client, tableName);
  // dynalite has no UpdateTimeToLive, so expired rows linger locally. DynamoDB itself deletes them
  // up to days late, so every read of an expiring row checks its expiry anyway.
}

/** CreateTable from shared/table.ts, waited for. */
async function createTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const keyAttrs = [table.partitionKey, table.sortKey, ...table.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: keyAttrs.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: table.partitionKey, KeyType: 'HASH' },
        { AttributeName: table.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: table.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  // dynalite answers CreateTable with the table still CREATING, even with createTableMs 0.
  await waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 0.05, maxDelay: 0.2 }, { TableName: tableName });
}

/**
 * A data folder made before an index was added to shared/table.ts gets it at start: dynalite cannot
 * add an index to a table (its UpdateTable only changes throughput), so each table that has some of
 * the indexes but not all is rebuilt: its items read out, the table made anew from shared/table.ts,
 * the items written back. Straight to dynalite, before the transaction front starts, so the rewrite
 * is no change the table's stream reports (no notification is pushed again).
 */
async function addMissingIndexes(endpoint: string): Promise<void> {
  const client = localDynamoClient(endpoint);
  try {
    const names = new Set<string>(table.indexes.map((i) => i.name));
    for (const tableName of (await client.send(new ListTablesCommand({}))).TableNames ?? []) {
      const found = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.GlobalSecondaryIndexes ?? [];
      const present = found.filter((i) => i.IndexName && names.has(i.IndexName)).length;
      if (present === 0 || present === names.size) continue;
      await rebuild(client, tableName);
    }
  } finally {
    client.destroy();
  }
}

async function rebuild(client: DynamoDBClient, tableName: string): Promise<void> {
  const items: NonNullable<ScanCommandOutput['Items']> = [];
  let start: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  await waitUntilTableNotExists({ client, maxWaitTime: 30, minDelay: 0.05, maxDelay: 0.2 }, { TableName: tableName });
  await createTable(client, tableName);
  for (let i = 0; i < items.length; i += 25) {
    let pending: BatchWriteItemCommandOutput['UnprocessedItems'] = { [tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) };
    while (pending && Object.keys(pending).length > 0) {
      pending = (await client.send(new BatchWriteItemCommand({ RequestItems: pending }))).UnprocessedItems;
    }
  }
}

/** The catalogue is product data: rewritten on every start so copy edits reach old data dirs. */
export async function seedCatalog(client: DynamoDBClient, tableName: string): Promise<void> {
  const doc = DynamoDBDocumentClient.from(client);
  await doc.send(
    new BatchWriteCommand({
      RequestItems: { [tableName]: catalogItems().map((Item) => ({ PutRequest: { Item } })) },
    }),
  );
}
