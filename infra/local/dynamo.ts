import { createRequire } from 'node:module';
import type { CapacityMeter } from './dynamo-meter';
import { Worker } from 'node:worker_threads';
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
import type { OnChange } from './dynamo-stream';
import { startTransactionFront } from './dynamo-transactions';
import { claimFolder } from './folder-claim';
import { refileShardedLists } from './refile-lists';
import { makePrivateFolder } from './private-file';
import { catalogItems } from '../../functions/catalog/data/items';
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
export async function startDynalite(dir?: string, onChange?: OnChange, meter?: CapacityMeter): Promise<LocalDynamo> {
  // The table's items are people's details: LevelDB's files sit in a folder only its owner may open.
  if (dir) makePrivateFolder(dir);
  const release = dir ? claimFolder(dir) : () => {};
  let server: DynaliteThread | undefined;
  let front: Awaited<ReturnType<typeof startTransactionFront>>;
  try {
    server = await startDynaliteThread(dir);
    await addMissingIndexes(server.endpoint);
    const client = localDynamoClient(server.endpoint);
    await refileShardedLists(client).finally(() => client.destroy());
    // Beside LevelDB's folder, not in it: the transactions a killed process left half done.
    front = await startTransactionFront(server.endpoint, onChange, dir ? `${dir}-journal` : undefined, meter);
  } catch (error) {
    await server?.close();
    release();
    throw error;
  }
  return {
    endpoint: front.endpoint,
    recovered: front.recovered,
    close: async () => {
      await front.close();
      await server.close();
      release();
    },
  };
}

interface DynaliteThread {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * dynalite's own work (parsing, LevelDB, its HTTP server) on a thread of its own: the functions,
 * the front and the other local services share the main thread, so on a laptop's second core the
 * table answers while the functions run, rather than taking turns with them. A thread, not a
 * process: it ends with the process however that ends (a SIGKILL leaves no server holding LevelDB's
 * lock for the next start). Plain JavaScript run as is, so the thread needs no TypeScript loader.
 */
function startDynaliteThread(dir: string | undefined): Promise<DynaliteThread> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const dynalite = require(workerData.dynalite);
    const server = dynalite({ path: workerData.dir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    server.once('error', (error) => parentPort.postMessage({ error: String(error && error.message || error) }));
    server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
    parentPort.on('message', (message) => {
      if (message !== 'close') return;
      server.closeAllConnections();
      // dynalite closes its LevelDB with the server, flushing what was written.
      server.close((error) => parentPort.postMessage({ closed: true, error: error ? String(error.message || error) : undefined }));
    });
  `;
  const worker = new Worker(code, { eval: true, workerData: { dynalite: createRequire(import.meta.url).resolve('dynalite'), dir } });
  const next = () =>
    new Promise<{ port?: number; closed?: boolean; error?: string }>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`dynalite's thread stopped (exit code ${code})`));
      worker.once('exit', onExit);
      worker.once('error', reject);
      worker.once('message', (message: { port?: number; closed?: boolean; error?: string }) => {
        worker.off('exit', onExit);
        worker.off('error', reject);
        resolve(message);
      });
    });
  return next().then(async (started) => {
    if (!started.port) {
      await worker.terminate();
      throw new Error(`dynalite did not start: ${started.error ?? 'no port'}`);
    }
    let closing: Promise<void> | undefined;
    return {
      endpoint: `http://127.0.0.1:${started.port}`,
      close: () =>
        (closing ??= (async () => {
          const closed = next();
          worker.postMessage('close');
          const { error } = await closed;
          await worker.terminate();
          if (error) throw new Error(`dynalite did not close cleanly: ${error}`);
        })()),
    };
  });
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
