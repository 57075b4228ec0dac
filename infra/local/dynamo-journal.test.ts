import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetItemCommand, PutItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureTable, localDynamoClient, startDynalite } from './dynamo';

const TABLE = 'journal-test';
const key = (id: string) => ({ pk: { S: `THING#${id}` }, sk: { S: 'THING' } });
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function open(dir: string) {
  const dynamo = await startDynalite(dir);
  const client = localDynamoClient(dynamo.endpoint);
  await ensureTable(client, TABLE);
  const item = async (id: string) => (await client.send(new GetItemCommand({ TableName: TABLE, Key: key(id), ConsistentRead: true }))).Item;
  return { dynamo, client, item, close: async () => (client.destroy(), dynamo.close()) };
}

describe('the local transactions journal', () => {
  it('puts back, at the next start, the items of a transaction the process was killed in the middle of', async () => {
    // Prepare: A existed as v1, B did not; a run was killed after the transaction wrote A as v2 and B,
    // with its journal (the before-images) still on disk.
    const root = mkdtempSync(path.join(tmpdir(), 'journal-'));
    dirs.push(root);
    const dir = path.join(root, 'dynamodb');
    const first = await open(dir);
    await first.client.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('a'), v: { S: '1' } } }));
    const before = await first.item('a');
    await first.client.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('a'), v: { S: '2' } } }));
    await first.client.send(new PutItemCommand({ TableName: TABLE, Item: { ...key('b'), v: { S: '2' } } }));
    await first.close();
    mkdirSync(`${dir}-journal`, { recursive: true });
    writeFileSync(
      path.join(`${dir}-journal`, '1-interrupted.json'),
      JSON.stringify([
        { tableName: TABLE, key: key('a'), before },
        { tableName: TABLE, key: key('b') },
      ]),
    );

    // Act
    const second = await open(dir);

    // Assess
    expect(second.dynamo.recovered).toBe(1);
    expect(await second.item('a')).toEqual(before);
    expect(await second.item('b')).toBeUndefined();
    expect(readdirSync(`${dir}-journal`)).toEqual([]);
    await second.close();
  });

  it('leaves nothing in the journal once a transaction answered, applied or cancelled', async () => {
    // Prepare
    const root = mkdtempSync(path.join(tmpdir(), 'journal-'));
    dirs.push(root);
    const dir = path.join(root, 'dynamodb');
    const { client, item, close } = await open(dir);
    const put = (id: string) => ({ Put: { TableName: TABLE, Item: { ...key(id), v: { S: 'x' } }, ConditionExpression: 'attribute_not_exists(pk)' } });

    // Act
    await client.send(new TransactWriteItemsCommand({ TransactItems: [put('c'), put('d')] }));
    const refused = await client.send(new TransactWriteItemsCommand({ TransactItems: [put('e'), put('c')] })).catch((error: Error) => error.name);

    // Assess
    expect(refused).toBe('TransactionCanceledException');
    expect(await item('c')).toBeDefined();
    expect(await item('e')).toBeUndefined();
    expect(readdirSync(`${dir}-journal`)).toEqual([]);
    await close();
  });

  it('starts cleanly past a journal file cut short while it was written (no action had run)', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'journal-'));
    dirs.push(root);
    const dir = path.join(root, 'dynamodb');
    mkdirSync(`${dir}-journal`, { recursive: true });
    writeFileSync(path.join(`${dir}-journal`, '1-torn.json'), '[{"tableName":"journal-te');

    const { dynamo, close } = await open(dir);

    expect(dynamo.recovered).toBe(1);
    expect(readdirSync(`${dir}-journal`)).toEqual([]);
    await close();
  });
});
