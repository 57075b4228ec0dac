import { randomUUID } from 'node:crypto';

/**
 * The table's stream for the embedded runtime: dynalite has no DynamoDB Streams, so the front that
 * serialises every write (dynamo-transactions.ts) reads each changed item before and after the
 * write and hands the change here, as the record Lambda receives from a NEW_IMAGE stream. Records
 * go to each consumer whose filter matches, after the write has answered and in the order written,
 * in batches of what piled up meanwhile; a consumer that throws is logged, not retried.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- DynamoDB's JSON protocol, read field by field as the service itself reads it.
type Json = Record<string, any>;

export interface StreamRecord {
  eventID: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  eventVersion: '1.1';
  eventSource: 'aws:dynamodb';
  awsRegion: string;
  eventSourceARN: string;
  dynamodb: {
    ApproximateCreationDateTime: number;
    Keys: Json;
    NewImage?: Json;
    SequenceNumber: string;
    SizeBytes: number;
    StreamViewType: 'NEW_IMAGE';
  };
}

/** One item's change: its key and its image (DynamoDB JSON) before and after; undefined where absent. */
export interface ItemChange {
  tableName: string;
  key: Json;
  before: Json | undefined;
  after: Json | undefined;
}

export interface StreamConsumer {
  name: string;
  /** A record matching any of them is the consumer's, as an event source mapping's filters. */
  filters: readonly Record<string, unknown>[];
  deliver(event: { Records: StreamRecord[] }): Promise<unknown>;
}

/** A write as the front sees it: its operation and DynamoDB JSON input. */
export interface PlannedWrite {
  operation: 'PutItem' | 'UpdateItem' | 'DeleteItem';
  /** The new image when the write alone says it (a put's item); absent for updates and deletes. */
  item?: Json;
}

export type OnChange = ((changes: ItemChange[]) => void) & {
  /**
   * Whether any consumer could want a record of this write. When none could, the front skips
   * reading the items before and after it: most writes (jobs, workers, sessions) match no filter.
   */
  couldMatch?: (write: PlannedWrite) => boolean;
};

const REGION = 'us-east-1';
let sequence = 0;

/** The stream record of a change, or undefined when nothing changed (a delete of a missing item, an identical put). */
export function toStreamRecord(change: ItemChange): StreamRecord | undefined {
  const { before, after } = change;
  if (!before && !after) return undefined;
  if (before && after && JSON.stringify(before) === JSON.stringify(after)) return undefined;
  const eventName = !before ? 'INSERT' : !after ? 'REMOVE' : 'MODIFY';
  return {
    eventID: randomUUID().replaceAll('-', ''),
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: REGION,
    eventSourceARN: `arn:aws:dynamodb:${REGION}:000000000000:table/${change.tableName}/stream/local`,
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: change.key,
      ...(after ? { NewImage: after } : {}),
      SequenceNumber: String(++sequence).padStart(21, '0'),
      SizeBytes: Buffer.byteLength(JSON.stringify(after ?? change.key)),
      StreamViewType: 'NEW_IMAGE',
    },
  };
}

/**
 * Whether a record matches an event-filter pattern, as Lambda's event filtering reads one: every
 * field the pattern names must be present; a nested object matches field by field; a list names
 * the accepted values (strings, numbers, booleans, or `{ prefix: '…' }`).
 */
export function matchesFilter(pattern: Record<string, unknown>, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(pattern).every(([field, rule]) => {
    const actual = (value as Json)[field];
    if (actual === undefined) return false;
    if (Array.isArray(rule)) {
      return rule.some((accepted) =>
        typeof accepted === 'object' && accepted !== null && 'prefix' in accepted
          ? typeof actual === 'string' && actual.startsWith(String((accepted as { prefix: unknown }).prefix))
          : actual === accepted,
      );
    }
    return typeof rule === 'object' && rule !== null && matchesFilter(rule as Record<string, unknown>, actual);
  });
}

/**
 * Whether a consumer's filter could match a record of this write, by what the write alone says: a
 * put's record has its item as NewImage (INSERT or MODIFY), a delete's has none (REMOVE), and an
 * update's new image is unknown until it is read, so an update could always match.
 */
export function couldMatch(filter: Record<string, unknown>, write: PlannedWrite): boolean {
  if (write.operation === 'UpdateItem') return true;
  const records =
    write.operation === 'PutItem'
      ? (['INSERT', 'MODIFY'] as const).map((eventName) => ({ eventName, dynamodb: { NewImage: write.item } }))
      : [{ eventName: 'REMOVE', dynamodb: {} }];
  return records.some((record) => matchesFilter(withoutPresenceOf(filter, 'Keys'), record));
}

/** The pattern without a field the write's planned record does not carry (its keys are always there). */
function withoutPresenceOf(filter: Record<string, unknown>, field: string): Record<string, unknown> {
  const dynamodb = filter.dynamodb as Record<string, unknown> | undefined;
  if (!dynamodb || !(field in dynamodb)) return filter;
  const { [field]: _dropped, ...rest } = dynamodb;
  return { ...filter, dynamodb: rest };
}

/** The local stream: the front's change listener, and a way to wait for what it is still delivering. */
export type LocalStream = OnChange & {
  /**
   * Resolves once every record handed over so far has been delivered: a stack stopping waits for
   * it, so a consumer in the middle of a record (marking a mail sent, say) still has its table.
   */
  settled(): Promise<void>;
};

/** At most this many records go to a consumer at once, as an event source mapping's batch size. */
export const LOCAL_BATCH_SIZE = 100;

/**
 * The front's change listener: each change that makes a record goes, in order, to the consumers it
 * matches. Records that arrive while earlier ones are being delivered wait, and go on together: each
 * consumer gets the waiting records it matches as one batch (up to LOCAL_BATCH_SIZE, in the order
 * written), as a mapping hands over what piled up on its shard, so a burst of writes costs the
 * consumers a few calls rather than one per record.
 */
export function localStream(consumers: StreamConsumer[], log: (message: string) => void = console.error): LocalStream {
  let tail = Promise.resolve();
  const waiting: StreamRecord[] = [];
  const deliverWaiting = async () => {
    while (waiting.length) {
      const batch = waiting.splice(0, LOCAL_BATCH_SIZE);
      for (const consumer of consumers) {
        const records = batch.filter((record) => consumer.filters.some((filter) => matchesFilter(filter, record)));
        if (!records.length) continue;
        await consumer.deliver({ Records: records }).catch((error: unknown) => {
          log(`[stream] ${consumer.name} failed on a batch of ${records.length} record(s): ${(error as Error)?.message ?? error}`);
        });
      }
    }
  };
  const onChange: OnChange = (changes) => {
    const records = changes.map(toStreamRecord).filter((r): r is StreamRecord => r !== undefined);
    if (!records.length) return;
    const idle = waiting.length === 0;
    waiting.push(...records);
    // One drain at a time: records pushed while it runs are taken by the same drain's next batch.
    if (idle) tail = tail.then(deliverWaiting);
  };
  onChange.couldMatch = (write) => consumers.some((consumer) => consumer.filters.some((filter) => couldMatch(filter, write)));
  return Object.assign(onChange, { settled: () => tail });
}
