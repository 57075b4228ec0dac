import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  waitUntilTableExists,
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
  // dynalite has no UpdateTimeToLive, so expired rows linger locally. DynamoDB itself deletes them
  // up to days late, so every read of an expiring row checks its expiry anyway.
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
