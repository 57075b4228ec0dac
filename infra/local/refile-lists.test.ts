import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { jobEntity, workerEntity } from '../../shared/entities';
import { ensureTable, localDynamoClient, startDynalite } from './dynamo';

const TABLE = 'refile-test';

describe('a local data folder made before the lists were sharded', () => {
  it('moves the items under an old one-partition key to their shards at the next start, and leaves the rest alone', async () => {
    // Prepare: a job and a worker as an older build filed them, and an item of no sharded list.
    const root = mkdtempSync(path.join(tmpdir(), 'refile-'));
    const dir = path.join(root, 'dynamodb');
    const job = { ...jobEntity.key('j1'), entity: 'job', id: 'j1', createdAt: 't1', gsi3pk: 'JOBS', gsi3sk: 'JOB#t1', gsi4pk: 'OPENJOBS', gsi4sk: 't1', gsi1pk: 'CUSTOMER#c1', gsi1sk: 'REQUEST#t1' };
    const worker = { ...workerEntity.key('w1'), entity: 'worker', id: 'w1', createdAt: 't2', gsi2pk: 'WORKERS', gsi2sk: 'WORKER#t2' };
    const other = { pk: 'THING#1', sk: 'THING', entity: 'thing', gsi3pk: 'JOBS', gsi3sk: 'X' };
    const first = await startDynalite(dir);
    const before = DynamoDBDocumentClient.from(localDynamoClient(first.endpoint));
    await ensureTable(localDynamoClient(first.endpoint), TABLE);
    for (const Item of [job, worker, other]) await before.send(new PutCommand({ TableName: TABLE, Item }));
    before.destroy();
    await first.close();

    // Act: the next start.
    const second = await startDynalite(dir);
    const client = DynamoDBDocumentClient.from(localDynamoClient(second.endpoint));
    try {
      const read = async (key: { pk: string; sk: string }) => (await client.send(new GetCommand({ TableName: TABLE, Key: key }))).Item;

      // Assess
      const shard = jobEntity.indexes.all.shardOf(job);
      expect(await read(jobEntity.key('j1'))).toEqual({ ...job, gsi3pk: `JOBS#${shard}`, gsi4pk: `OPENJOBS#${shard}` });
      expect(await read(workerEntity.key('w1'))).toEqual({ ...worker, gsi2pk: `WORKERS#${workerEntity.indexes.all.shardOf(worker)}` });
      expect(await read({ pk: other.pk, sk: other.sk })).toEqual(other);
    } finally {
      client.destroy();
      await second.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
