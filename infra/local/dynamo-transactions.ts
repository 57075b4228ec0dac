import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { table } from '../../shared/table';
import type { ItemChange, OnChange, PlannedWrite } from './dynamo-stream';
import { readBody } from './http-io';
import { makePrivateFolder, PRIVATE_FILE_MODE } from './private-file';
import { queriedPartition, type CapacityMeter } from './dynamo-meter';

/** Past DynamoDB's own request limit (16 MB), a body is refused. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * dynalite speaks every DynamoDB operation we use but TransactWriteItems and TransactGetItems.
 * This front serves those two itself, so the functions use the real transactions of the AWS SDK
 * unchanged: writes passing through here are serialised item by item (KeyedLock), and a
 * transaction runs its actions in order as conditional writes on dynalite, putting back what it did when one is refused and
 * answering TransactionCanceledException with per-action reasons, as DynamoDB does.
 *
 * With a change listener it is also the table's stream (dynamo-stream.ts): every write a consumer
 * could want a record of reads the items it touches before and after, under the same lock, and
 * reports what changed; the others (most writes) pay nothing for it.
 */
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);
const ERROR_PREFIX = 'com.amazonaws.dynamodb.v20120810#';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- DynamoDB's JSON protocol, read field by field as the service itself reads it.
type Json = Record<string, any>;
type Call = (operation: string, input: Json) => Promise<{ status: number; body: Json }>;

/**
 * Item-level locking, as DynamoDB isolates writes: a write waits only for the earlier writes and
 * transactions that touch one of its items, so writes to different items (most of them) run side
 * by side. Taking several keys is one synchronous step, so waits always point at earlier holders
 * and cannot deadlock.
 */
class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  /** `onHeld` hears each key an earlier holder still has (a transaction meeting another write, for the meter). */
  run<T>(keys: readonly string[], work: () => Promise<T>, onHeld?: (key: string) => void): Promise<T> {
    const unique = [...new Set(keys)];
    if (onHeld) for (const k of unique) if (this.tails.has(k)) onHeld(k);
    const result = Promise.all(unique.map((k) => this.tails.get(k))).then(work);
    const done = result.then(
      () => undefined,
      () => undefined,
    );
    for (const k of unique) this.tails.set(k, done);
    void done.then(() => {
      for (const k of unique) if (this.tails.get(k) === done) this.tails.delete(k);
    });
    return result;
  }
}

/** An item's lock name: its table and key values, whatever order the key's attributes came in. */
function lockName(tableName: string, key: Json | undefined): string {
  return JSON.stringify([tableName, key?.[table.partitionKey], key?.[table.sortKey]]);
}

/** The items a request writes or reads together (none for one malformed beyond telling: it writes nothing). */
function lockedItems(operation: string, input: Json): string[] {
  try {
    if (operation === 'TransactWriteItems') return ((input.TransactItems ?? []) as Json[]).map((item) => {
      const write = asWrite(item);
      return lockName(write.tableName, write.key);
    });
    if (operation === 'TransactGetItems') return ((input.TransactItems ?? []) as Json[]).map(({ Get }) => lockName(Get?.TableName, Get?.Key));
    return touched(operation, input).map((t) => lockName(t.tableName, t.key));
  } catch {
    return [];
  }
}


function keyOf(item: Json): Json {
  return { [table.partitionKey]: item[table.partitionKey], [table.sortKey]: item[table.sortKey] };
}

const errorType = (body: Json) => String(body.__type ?? '').split('#').pop();

/** One action of a transaction as the plain write dynalite knows, and the key it touches. */
function asWrite(rest: Json): { operation: string; input: Json; tableName: string; key: Json; check: boolean } {
  if (rest.Put) {
    const { ReturnValuesOnConditionCheckFailure: _r, ...input } = rest.Put;
    return { operation: 'PutItem', input, tableName: input.TableName, key: keyOf(input.Item), check: false };
  }
  if (rest.Update) {
    const { ReturnValuesOnConditionCheckFailure: _r, ...input } = rest.Update;
    return { operation: 'UpdateItem', input, tableName: input.TableName, key: input.Key, check: false };
  }
  if (rest.Delete) {
    const { ReturnValuesOnConditionCheckFailure: _r, ...input } = rest.Delete;
    return { operation: 'DeleteItem', input, tableName: input.TableName, key: input.Key, check: false };
  }
  if (rest.ConditionCheck) {
    // A condition alone: an update that changes nothing but has to pass the same condition.
    const { ReturnValuesOnConditionCheckFailure: _r, ...c } = rest.ConditionCheck;
    const input = {
      ...c,
      UpdateExpression: 'REMOVE #txNoop',
      ExpressionAttributeNames: { ...c.ExpressionAttributeNames, '#txNoop': '__txNoop' },
    };
    return { operation: 'UpdateItem', input, tableName: c.TableName, key: c.Key, check: true };
  }
  throw Object.assign(new Error('Each TransactItems entry needs one of Put, Update, Delete or ConditionCheck'), {
    validation: true,
  });
}

/** A transaction action as the stream's filters judge it (a condition check writes nothing). */
function plannedOf(write: ReturnType<typeof asWrite>): PlannedWrite {
  if (write.check) return { operation: 'DeleteItem' };
  if (write.operation === 'PutItem') return { operation: 'PutItem', item: write.input.Item };
  return { operation: write.operation as PlannedWrite['operation'] };
}

async function transactWrite(call: Call, input: Json, onChange?: OnChange, journal?: Journal, meter?: CapacityMeter): Promise<{ status: number; body: Json }> {
  const items: Json[] = input.TransactItems ?? [];
  let writes;
  try {
    writes = items.map(asWrite);
  } catch (error) {
    return validation((error as Error).message);
  }
  if (items.length === 0 || items.length > 100) return validation('TransactItems must hold 1 to 100 actions');
  const seen = new Set(writes.map((w) => `${w.tableName}|${JSON.stringify(w.key)}`));
  if (seen.size !== writes.length) {
    return validation('Transaction request cannot include multiple operations on one item');
  }

  const befores: (Json | undefined)[] = [];
  for (const write of writes) {
    const got = await call('GetItem', { TableName: write.tableName, Key: write.key, ConsistentRead: true });
    befores.push(got.body.Item as Json | undefined);
  }
  // Written down before the first write: a process killed midway is put back at its next start.
  const entry = journal?.begin(writes.map((w, i) => ({ tableName: w.tableName, key: w.key, before: befores[i] })));
  try {
    const out = await applyAll(call, writes, befores, onChange);
    if (meter) {
      for (const [i, write] of writes.entries()) {
        const after = out.status === 200 && !write.check ? await itemAt(call, write.tableName, write.key) : befores[i];
        meter.write({ key: write.key, before: befores[i], after, ok: out.status === 200, transactional: true });
      }
    }
    return out;
  } finally {
    entry?.end();
  }
}

async function applyAll(
  call: Call,
  writes: ReturnType<typeof asWrite>[],
  befores: (Json | undefined)[],
  onChange?: OnChange,
): Promise<{ status: number; body: Json }> {
  const done: { tableName: string; key: Json; before: Json | undefined; check: boolean }[] = [];
  const undo = async () => {
    for (const d of done.reverse()) {
      if (d.before) await call('PutItem', { TableName: d.tableName, Item: d.before });
      else await call('DeleteItem', { TableName: d.tableName, Key: d.key });
    }
  };
  for (const [i, write] of writes.entries()) {
    const before = befores[i];
    const out = await call(write.operation, write.input);
    if (out.status !== 200) {
      await undo();
      if (errorType(out.body) !== 'ConditionalCheckFailedException') return out;
      const reasons = writes.map((_, j) =>
        j === i ? { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' } : { Code: 'None' },
      );
      return {
        status: 400,
        body: {
          __type: `${ERROR_PREFIX}TransactionCanceledException`,
          message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
          CancellationReasons: reasons,
        },
      };
    }
    done.push({ tableName: write.tableName, key: write.key, before, check: write.check });
  }
  // A condition check on a missing item made an empty one to test against: remove it again.
  for (const d of done) {
    if (d.check && !d.before) await call('DeleteItem', { TableName: d.tableName, Key: d.key });
  }
  if (onChange && writes.some((w) => onChange.couldMatch?.(plannedOf(w)) ?? true)) {
    const changes: ItemChange[] = [];
    for (const d of done) {
      if (!d.check) changes.push({ tableName: d.tableName, key: d.key, before: d.before, after: await itemAt(call, d.tableName, d.key) });
    }
    onChange(changes);
  }
  return { status: 200, body: {} };
}

async function transactGet(call: Call, input: Json, meter?: CapacityMeter): Promise<{ status: number; body: Json }> {
  const responses: Json[] = [];
  for (const { Get } of (input.TransactItems ?? []) as Json[]) {
    const out = await call('GetItem', { ...Get, ConsistentRead: true, ...(meter ? { ReturnConsumedCapacity: 'TOTAL' } : {}) });
    if (out.status !== 200) return out;
    // A transaction's read costs twice a strongly consistent one.
    meter?.read({ partition: Get?.Key?.[table.partitionKey]?.S, units: 2 * Number(out.body.ConsumedCapacity?.CapacityUnits ?? 1) });
    responses.push(out.body.Item ? { Item: out.body.Item } : {});
  }
  return { status: 200, body: { Responses: responses } };
}

async function itemAt(call: Call, tableName: string, key: Json): Promise<Json | undefined> {
  const got = await call('GetItem', { TableName: tableName, Key: key, ConsistentRead: true });
  return got.body.Item as Json | undefined;
}

/** The items a plain write touches, by table and key. */
function touched(operation: string, input: Json): { tableName: string; key: Json }[] {
  if (operation === 'PutItem') return [{ tableName: input.TableName, key: keyOf(input.Item ?? {}) }];
  if (operation === 'UpdateItem' || operation === 'DeleteItem') return [{ tableName: input.TableName, key: input.Key }];
  return Object.entries((input.RequestItems ?? {}) as Record<string, Json[]>).flatMap(([tableName, requests]) =>
    requests.map((r) => ({ tableName, key: r.PutRequest ? keyOf(r.PutRequest.Item ?? {}) : r.DeleteRequest?.Key })),
  );
}

/** The single-item writes an operation makes, as the stream's filters can judge them before it runs. */
function plannedWrites(operation: string, input: Json): PlannedWrite[] {
  if (operation === 'PutItem') return [{ operation, item: input.Item }];
  if (operation === 'UpdateItem' || operation === 'DeleteItem') return [{ operation }];
  return Object.values((input.RequestItems ?? {}) as Record<string, Json[]>).flatMap((requests) =>
    requests.map((r): PlannedWrite => (r.PutRequest ? { operation: 'PutItem', item: r.PutRequest.Item } : { operation: 'DeleteItem' })),
  );
}

const READS = new Set(['GetItem', 'Query', 'BatchGetItem', 'Scan']);

/** A read's units, charged to the partition it names. */
function meterRead(meter: CapacityMeter, operation: string, input: Json, body: Json): void {
  const consumed = ([] as Json[]).concat(body.ConsumedCapacity ?? []);
  const units = consumed.reduce((sum, c) => sum + Number(c.CapacityUnits ?? 0), 0);
  const partition = operation === 'GetItem' ? input.Key?.[table.partitionKey]?.S : operation === 'Query' ? queriedPartition(input) : undefined;
  meter.read({ ...(input.IndexName ? { index: input.IndexName } : {}), ...(partition ? { partition } : {}), units });
}

/** The partition of a lock name (lockName's JSON). */
function partitionOfLock(name: string): string {
  const [, pk] = JSON.parse(name) as [string, Json | undefined];
  return `table:${pk?.S ?? '?'}`;
}

function validation(message: string) {
  return { status: 400, body: { __type: 'com.amazon.coral.validate#ValidationException', message } };
}

/**
 * DynamoDB's idempotency for TransactWriteItems: the SDK gives every transaction a
 * ClientRequestToken and sends the same one when it retries (after a timeout, say), and a token
 * seen in the last 10 minutes with the same request succeeds again without writing twice; with a
 * different request it is refused. Kept in memory: a restart forgets, as it forgets little else.
 */
class RequestTokens {
  private readonly seen = new Map<string, { request: string; at: number }>();
  private static readonly WINDOW_MS = 10 * 60_000;

  async once(input: Json, write: () => Promise<{ status: number; body: Json }>): Promise<{ status: number; body: Json }> {
    const { ClientRequestToken: token, ...rest } = input;
    if (typeof token !== 'string') return write();
    const now = Date.now();
    for (const [t, { at }] of this.seen) {
      if (now - at > RequestTokens.WINDOW_MS) this.seen.delete(t);
      else break;
    }
    const request = JSON.stringify(rest);
    const earlier = this.seen.get(token);
    if (earlier) {
      if (earlier.request === request) return { status: 200, body: {} };
      return {
        status: 400,
        body: { __type: `${ERROR_PREFIX}IdempotentParameterMismatchException`, message: 'The ClientRequestToken was used before with a different request' },
      };
    }
    const out = await write();
    if (out.status === 200) this.seen.set(token, { request, at: now });
    return out;
  }
}

interface JournalEntry {
  tableName: string;
  key: Json;
  before: Json | undefined;
}

/**
 * DynamoDB applies a transaction all at once; this front applies its actions one by one, so a
 * process killed between two of them would leave half a transaction on disk (a booking without its
 * job). Each transaction's before-images are written to a file first and removed once it is done;
 * at start, any file left behind is a transaction that never answered, and its items are put back.
 */
class Journal {
  constructor(private readonly dir: string) {
    makePrivateFolder(dir);
  }

  begin(entries: JournalEntry[]): { end(): void } {
    const file = path.join(this.dir, `${Date.now()}-${randomUUID()}.json`);
    writeFileSync(file, JSON.stringify(entries), { mode: PRIVATE_FILE_MODE });
    return { end: () => rmSync(file, { force: true }) };
  }

  /** Puts back the items of every transaction cut short; answers how many there were. */
  async recover(call: Call): Promise<number> {
    const files = readdirSync(this.dir).filter((f) => f.endsWith('.json')).sort();
    for (const name of files) {
      const file = path.join(this.dir, name);
      let entries: JournalEntry[] = [];
      try {
        entries = JSON.parse(readFileSync(file, 'utf8')) as JournalEntry[];
      } catch {
        // Cut short while being written: no action of its transaction had run yet.
      }
      for (const entry of entries.reverse()) {
        const out = entry.before
          ? await call('PutItem', { TableName: entry.tableName, Item: entry.before })
          : await call('DeleteItem', { TableName: entry.tableName, Key: entry.key });
        if (out.status !== 200) throw new Error(`Could not put back an item of an interrupted transaction (${file}): ${JSON.stringify(out.body)}`);
      }
      rmSync(file, { force: true });
    }
    return files.length;
  }
}

/** A call to dynalite itself, outside any request (it checks that a signature is there, not what it says). */
function innerCall(inner: string): Call {
  return async (op, input) => {
    const out = await fetch(inner, {
      method: 'POST',
      headers: {
        authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
        'x-amz-date': '20260101T000000Z',
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${op}`,
      },
      body: JSON.stringify(input),
    });
    return { status: out.status, body: (await out.json()) as Json };
  };
}

/** Starts the front on a free loopback port, passing everything else to dynalite at `inner`. */
export async function startTransactionFront(
  inner: string,
  onChange?: OnChange,
  journalDir?: string,
  meter?: CapacityMeter,
): Promise<{ endpoint: string; recovered: number; close(): Promise<void> }> {
  const journal = journalDir ? new Journal(journalDir) : undefined;
  const recovered = journal ? await journal.recover(innerCall(inner)) : 0;
  const lock = new KeyedLock();
  const tokens = new RequestTokens();
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      // Only the local front fails this way; its log is the one place that says why a call got a 500.
      console.error('The local DynamoDB front failed a call:', error);
      res.statusCode = 500;
      res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(error) }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, MAX_BODY_BYTES, () => new Error('Request body too large'));
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.split('.').pop() ?? '';
    const signed = {
      authorization: String(req.headers.authorization ?? ''),
      'x-amz-date': String(req.headers['x-amz-date'] ?? ''),
    };
    const call: Call = async (op, input) => {
      const out = await fetch(inner, {
        method: 'POST',
        headers: { ...signed, 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `DynamoDB_20120810.${op}` },
        body: JSON.stringify(input),
      });
      return { status: out.status, body: (await out.json()) as Json };
    };
    const reply = ({ status, body: json }: { status: number; body: Json }) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(json));
    };

    if (operation === 'TransactWriteItems') {
      const input = JSON.parse(body.toString()) as Json;
      return reply(
        await lock.run(
          lockedItems(operation, input),
          () => tokens.once(input, () => transactWrite(call, input, onChange, journal, meter)),
          meter && ((key) => meter.contended(partitionOfLock(key))),
        ),
      );
    }
    if (operation === 'TransactGetItems') {
      const input = JSON.parse(body.toString()) as Json;
      return reply(await lock.run(lockedItems(operation, input), () => transactGet(call, input, meter)));
    }
    if (meter && READS.has(operation)) {
      const input = JSON.parse(body.toString()) as Json;
      const out = await call(operation, { ...input, ReturnConsumedCapacity: 'TOTAL' });
      meterRead(meter, operation, input, out.body);
      if (!input.ReturnConsumedCapacity || input.ReturnConsumedCapacity === 'NONE') delete out.body.ConsumedCapacity;
      return reply(out);
    }

    const forward = async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (v !== undefined && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = String(v);
      }
      const out = await fetch(inner, { method: req.method, headers, body: req.method === 'GET' ? undefined : new Uint8Array(body) });
      const payload = Buffer.from(await out.arrayBuffer());
      const relay: Record<string, string> = { 'content-type': out.headers.get('content-type') ?? 'application/x-amz-json-1.0' };
      const crc = out.headers.get('x-amz-crc32');
      if (crc) relay['x-amz-crc32'] = crc;
      const id = out.headers.get('x-amzn-requestid');
      if (id) relay['x-amzn-requestid'] = id;
      return { status: out.status, send: () => void res.writeHead(out.status, relay).end(payload) };
    };
    if (!WRITES.has(operation)) return (await forward()).send();
    const input = JSON.parse(body.toString()) as Json;
    const items = lockedItems(operation, input);
    if (!meter && (!onChange || !plannedWrites(operation, input).some((w) => onChange.couldMatch?.(w) ?? true))) {
      return (await lock.run(items, forward)).send();
    }
    // The change is reported before the write is answered, so a reader of the stream that waits for
    // the answer (a test) sees it; what consumers do with it still happens after.
    const answer = await lock.run(items, async () => {
      const items = touched(operation, input).filter((t) => t.key);
      const before = await Promise.all(items.map((t) => itemAt(call, t.tableName, t.key)));
      const out = await forward();
      if (out.status === 200) {
        const after = await Promise.all(items.map((t) => itemAt(call, t.tableName, t.key)));
        onChange?.(items.map((t, i) => ({ ...t, before: before[i], after: after[i] })));
        if (meter) for (const [i, t] of items.entries()) meter.write({ key: t.key, before: before[i], after: after[i], ok: true, transactional: false });
      } else if (meter && out.status === 400) {
        // A refused condition costs as the write would have; the item is as it was.
        for (const [i, t] of items.entries()) meter.write({ key: t.key, before: before[i], after: before[i], ok: false, transactional: false });
      }
      return out;
    });
    answer.send();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    recovered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
