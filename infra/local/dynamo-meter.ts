import { indexes } from '../../shared/entities/indexes';
import { table } from '../../shared/table';

/**
 * What the table's work would cost in DynamoDB, measured at the local front (dynamo-transactions.ts)
 * as DynamoDB bills and limits it: write units per 1 KB of the larger of an item's images (twice for a
 * transaction's), on the table's partition and on every index partition the item leaves or joins;
 * read units per 4 KB (half for an eventually consistent read, twice for a transaction's), on the
 * partition the read names. A refused conditional write costs what it would have written, as in
 * DynamoDB. The partitions are named `<table or index>:<partition key value>`, so the bench can find
 * the hottest and scale it. Off unless a stack is started with a meter (`npm run bench` alone).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- DynamoDB's JSON protocol.
type Json = Record<string, any>;

export interface MeteredWrite {
  key: Json;
  before: Json | undefined;
  after: Json | undefined;
  /** False when the write's condition refused it (it still costs). */
  ok: boolean;
  transactional: boolean;
}

export interface MeteredRead {
  index?: string;
  /** The partition key value the read names, when it names one (a Get, a Query). */
  partition?: string;
  /** DynamoDB's read units for it, as the service reports them (dynalite computes them alike). */
  units: number;
}

export interface PartitionLoad {
  writeUnits: number;
  readUnits: number;
}

export interface MeterSnapshot {
  writeUnits: number;
  readUnits: number;
  /** Write requests (each item of a batch or transaction counted once). */
  writes: number;
  reads: number;
  /** Conditional writes the condition refused. */
  refusedWrites: number;
  /** Items of each entity put new (`outbound-mail` is mail queued, `notification` an in-app message). */
  created: Record<string, number>;
  partitions: Record<string, PartitionLoad>;
  /**
   * Items a transaction found held by another write in flight (the local front serialises them; in
   * DynamoDB one of the two is refused with a TransactionConflict), by partition.
   */
  contention: Record<string, number>;
}

const KB = 1024;

/** An item's size as DynamoDB counts it: attribute names and values, in bytes. */
export function itemBytes(item: Json | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value as Json), 0);
}

function valueBytes(value: Json): number {
  const [type, v] = Object.entries(value)[0] ?? ['NULL', true];
  switch (type) {
    case 'S':
      return Buffer.byteLength(String(v));
    case 'N':
      return Math.ceil(String(v).replace(/^-|\.|e.*$/gi, '').length / 2) + 1;
    case 'B':
      return Buffer.from(String(v), 'base64').length;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'SS':
    case 'NS':
    case 'BS':
      return (v as string[]).reduce((s, x) => s + valueBytes({ [type.slice(0, 1)]: x }), 0);
    case 'L':
      return 3 + (v as Json[]).reduce((s, x) => s + 1 + valueBytes(x), 0);
    case 'M':
      return 3 + itemBytes(v as Json) + Object.keys(v as Json).length;
    default:
      return 0;
  }
}

const writeUnitsOf = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));

export interface CapacityMeter {
  write(write: MeteredWrite): void;
  read(read: MeteredRead): void;
  /** A transaction waited for `partition`'s item, held by another write. */
  contended(partition: string): void;
  snapshot(): MeterSnapshot;
  reset(): void;
}

export function capacityMeter(): CapacityMeter {
  let state = empty();
  const load = (partition: string) => (state.partitions[partition] ??= { writeUnits: 0, readUnits: 0 });
  const charge = (partition: string, units: number) => {
    load(partition).writeUnits += units;
    state.writeUnits += units;
  };
  return {
    write({ key, before, after, ok, transactional }) {
      const factor = transactional ? 2 : 1;
      const stored = ok ? after : before;
      state.writes++;
      if (!ok) state.refusedWrites++;
      charge(`table:${key[table.partitionKey]?.S ?? "?"}`, factor * writeUnitsOf(Math.max(itemBytes(before), itemBytes(stored))));
      if (!ok) return;
      if (!before && after?.entity?.S) state.created[after.entity.S] = (state.created[after.entity.S] ?? 0) + 1;
      for (const index of indexes) {
        const was = before?.[index.partitionKey]?.S as string | undefined;
        const now = after?.[index.partitionKey]?.S as string | undefined;
        const moved = was !== undefined && now !== undefined && before?.[index.sortKey]?.S !== after?.[index.sortKey]?.S;
        // An index copy is rewritten when the item changes there, and moved (a delete and a put) when its keys change.
        if (was !== undefined && (now === undefined || was !== now || moved)) charge(`${index.name}:${was}`, writeUnitsOf(itemBytes(before)));
        if (now !== undefined) charge(`${index.name}:${now}`, writeUnitsOf(itemBytes(after)));
      }
    },
    read({ index, partition, units }) {
      state.reads++;
      state.readUnits += units;
      if (partition !== undefined) load(`${index ?? 'table'}:${partition}`).readUnits += units;
    },
    contended(partition) {
      state.contention[partition] = (state.contention[partition] ?? 0) + 1;
    },
    snapshot: () => structuredClone(state),
    reset() {
      state = empty();
    },
  };
}

function empty(): MeterSnapshot {
  return { writeUnits: 0, readUnits: 0, writes: 0, reads: 0, refusedWrites: 0, created: {}, partitions: {}, contention: {} };
}

/** The partition key value a Query names: the value its key condition gives the index's (or table's) partition key. */
export function queriedPartition(input: Json): string | undefined {
  const keyName = input.IndexName ? indexes.find((i) => i.name === input.IndexName)?.partitionKey : table.partitionKey;
  const condition = String(input.KeyConditionExpression ?? '');
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  for (const [, left, right] of condition.matchAll(/([#\w]+)\s*=\s*(:\w+)/g)) {
    if ((names[left!] ?? left) === keyName) return input.ExpressionAttributeValues?.[right!]?.S as string | undefined;
  }
  return undefined;
}
