import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { pathToFileURL } from 'node:url';
import { parseBatchObject, parseQueueMessage, regionOf, replaySucceeded, UnreplayableRecord, type FailureRecord } from './failure-records';

/**
 * `npm run replay -- <source> [--dry-run] [--max <n>]`: reads the records of failed work the stack
 * keeps (infra/failed-runs.ts) and invokes each function again with what it was originally given,
 * synchronously, so that a record is deleted only once its function has succeeded. `<source>` is
 * the DeadLetterQueueUrl output (failed timer and recurring runs, undelivered schedules) or
 * `s3://<FailedBatchesBucketName>/<key or prefix/>` (failed stream batches). README runbook.
 *
 * Running it twice, or after a crash between an invocation and its delete, invokes a function again
 * with the same input: every timer and recurring job makes conditional writes on what it reads, so
 * a second run changes nothing (README runbook says what a repeated push does).
 */

/** One record of a source: what to run, and how to forget it once it has run. */
export interface SourceItem {
  /** Where the record is, for the operator (the message id, or s3://bucket/key). */
  id: string;
  read(): FailureRecord;
  /** Removes the record: called only after a successful replay. */
  done(): Promise<void>;
}

export interface FailureSource {
  describe: string;
  items(): AsyncIterable<SourceItem>;
}

/** What a function answered a synchronous invocation. */
export interface Invocation {
  functionError?: string;
  response?: unknown;
}

/** Invokes a function by ARN with a JSON payload and waits for its answer. */
export type Invoker = (functionArn: string, payload: unknown) => Promise<Invocation>;

export interface ReplayOptions {
  dryRun?: boolean;
  /** Stop after this many records. */
  max?: number;
  log?: (line: string) => void;
}

export interface ReplaySummary {
  replayed: string[];
  /** Failed again (left in place for another run), by id with the reason. */
  failed: { id: string; reason: string }[];
  /** Not replayable as they stand (left in place), by id with the reason. */
  refused: { id: string; reason: string }[];
  /** Dry run: what would be replayed. */
  wouldReplay: { id: string; record: FailureRecord }[];
}

const describeRecord = (record: FailureRecord) =>
  `${record.kind} of ${record.functionArn}` +
  (record.kind === 'failed-batch' ? ` (${record.payload.Records.length} records)` : '') +
  (record.at ? ` at ${record.at}` : '') +
  (record.error ? `: ${record.error}` : '');

/** Replays every record of the source, each at most once per run. */
export async function replay(source: FailureSource, invoke: Invoker, options: ReplayOptions = {}): Promise<ReplaySummary> {
  const log = options.log ?? ((line: string) => console.log(line));
  const summary: ReplaySummary = { replayed: [], failed: [], refused: [], wouldReplay: [] };
  const seen = new Set<string>();
  log(`${options.dryRun ? 'Dry run: reading' : 'Replaying'} ${source.describe}`);
  for await (const item of source.items()) {
    if (seen.has(item.id)) continue;
    if (options.max !== undefined && seen.size >= options.max) break;
    seen.add(item.id);
    let record: FailureRecord;
    try {
      record = item.read();
    } catch (error) {
      if (!(error instanceof UnreplayableRecord)) throw error;
      summary.refused.push({ id: item.id, reason: error.message });
      log(`  refused  ${item.id}: ${error.message}`);
      continue;
    }
    if (options.dryRun) {
      summary.wouldReplay.push({ id: item.id, record });
      log(`  would replay ${item.id}: ${describeRecord(record)}\n    payload ${JSON.stringify(record.payload)}`);
      continue;
    }
    let invocation: Invocation;
    try {
      invocation = await invoke(record.functionArn, record.payload);
    } catch (error) {
      // Not the function failing but the call (no such function, no right to invoke it): the
      // record stays for a later run, and the others go on.
      const reason = `could not invoke it: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
      summary.failed.push({ id: item.id, reason });
      log(`  failed   ${item.id}: ${describeRecord(record)}; ${reason}`);
      continue;
    }
    const outcome = replaySucceeded(record, invocation);
    if (!outcome.ok) {
      summary.failed.push({ id: item.id, reason: outcome.reason });
      log(`  failed   ${item.id}: ${describeRecord(record)}; again: ${outcome.reason}`);
      continue;
    }
    await item.done();
    summary.replayed.push(item.id);
    log(`  replayed ${item.id}: ${describeRecord(record)}`);
  }
  const counts = options.dryRun
    ? `${summary.wouldReplay.length} to replay, ${summary.refused.length} refused`
    : `${summary.replayed.length} replayed, ${summary.failed.length} failed again, ${summary.refused.length} refused`;
  log(`Done: ${counts}.`);
  return summary;
}

// ---- Sources -------------------------------------------------------------------------------

/** Long enough for a recurring job (5 minutes) to run to the end before the message shows again. */
const REPLAY_VISIBILITY_SECONDS = 15 * 60;
/** A dry run hides what it read for a minute only; nothing else changes. */
const DRY_RUN_VISIBILITY_SECONDS = 60;

function attributesOf(message: Message): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) if (value.StringValue !== undefined) out[name] = value.StringValue;
  return out;
}

/**
 * The dead-letter queue. Each message read stays hidden while it is replayed and is deleted only
 * after its function succeeded; one that failed again shows again 15 minutes later.
 */
export function queueSource(sqs: SQSClient, queueUrl: string, options: { dryRun?: boolean; max?: number } = {}): FailureSource {
  return {
    describe: `the queue ${queueUrl}`,
    async *items() {
      // No more messages are taken (and hidden) than the run will replay.
      let left = options.max ?? Infinity;
      while (left > 0) {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(10, left),
            // Long polling asks every SQS server, so an empty answer means the queue is drained.
            WaitTimeSeconds: 2,
            VisibilityTimeout: options.dryRun ? DRY_RUN_VISIBILITY_SECONDS : REPLAY_VISIBILITY_SECONDS,
            MessageAttributeNames: ['All'],
          }),
        );
        if (!Messages.length) return;
        left -= Messages.length;
        for (const message of Messages) {
          yield {
            id: message.MessageId ?? 'unknown message',
            read: () => parseQueueMessage(message.Body ?? '', attributesOf(message)),
            done: async () => {
              await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
            },
          };
        }
      }
    },
  };
}

/** Failed stream batches: one object, or every object under a prefix (a location ending in "/", or none). */
export function bucketSource(s3: S3Client, bucket: string, location: string): FailureSource {
  const one = location !== '' && !location.endsWith('/');
  const item = async (key: string): Promise<SourceItem> => {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const body = await object.Body!.transformToString('utf8');
    return {
      id: `s3://${bucket}/${key}`,
      read: () => parseBatchObject(body),
      done: async () => {
        await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      },
    };
  };
  return {
    describe: one ? `s3://${bucket}/${location}` : `every object under s3://${bucket}/${location}`,
    async *items() {
      if (one) {
        yield await item(location);
        return;
      }
      // The keys first: deleting while listing would move the pages under our feet.
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: location, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      for (const key of keys) yield await item(key);
    },
  };
}

// ---- Invoking ------------------------------------------------------------------------------

/** Invokes through the Lambda API (one client per region, the one of each function's ARN). */
export function lambdaInvoker(clientFor: (region: string) => LambdaClient = defaultLambdaClient): Invoker {
  return async (functionArn, payload) => {
    const out = await clientFor(regionOf(functionArn)).send(
      new InvokeCommand({ FunctionName: functionArn, InvocationType: 'RequestResponse', Payload: new TextEncoder().encode(JSON.stringify(payload)) }),
    );
    const raw = out.Payload ? new TextDecoder().decode(out.Payload) : '';
    let response: unknown = raw;
    try {
      response = raw ? (JSON.parse(raw) as unknown) : undefined;
    } catch {
      // Not JSON: keep the text for the operator.
    }
    return { functionError: out.FunctionError, response };
  };
}

const lambdaClients = new Map<string, LambdaClient>();
function defaultLambdaClient(region: string): LambdaClient {
  let client = lambdaClients.get(region);
  if (!client) {
    // A recurring job may run 5 minutes; the answer comes when it ends.
    client = new LambdaClient({ region, requestHandler: { requestTimeout: 6 * 60 * 1000 } });
    lambdaClients.set(region, client);
  }
  return client;
}

// ---- Command line ----------------------------------------------------------------------------

export interface ReplayCommand {
  source: { kind: 'queue'; queueUrl: string; region: string } | { kind: 'bucket'; bucket: string; location: string };
  dryRun: boolean;
  max?: number;
}

const USAGE =
  'Usage: npm run replay -- <source> [--dry-run] [--max <n>]\n' +
  '  <source>: the DeadLetterQueueUrl output (https://sqs.<region>.amazonaws.com/<account>/<queue>)\n' +
  '            or s3://<FailedBatchesBucketName>/<key>, or s3://<FailedBatchesBucketName>/<prefix>/ for every object under it';

/** The command line, or an error whose message says what to type instead. */
export function parseCommand(args: readonly string[]): ReplayCommand {
  let dryRun = false;
  let max: number | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--dry-run') dryRun = true;
    else if (arg === '--max') {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 1) throw new Error(`--max takes a whole number of records, at least 1\n${USAGE}`);
      max = value;
    } else if (arg.startsWith('--')) throw new Error(`Unknown option ${arg}\n${USAGE}`);
    else rest.push(arg);
  }
  if (rest.length !== 1) throw new Error(`Give one source to replay from\n${USAGE}`);
  const target = rest[0]!;
  const s3 = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(target);
  if (s3) return { source: { kind: 'bucket', bucket: s3[1]!, location: s3[2] ?? '' }, dryRun, max };
  const queue = /^https:\/\/sqs\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\/\d{12}\/[A-Za-z0-9_-]{1,80}$/.exec(target);
  if (queue) return { source: { kind: 'queue', queueUrl: target, region: queue[1]! }, dryRun, max };
  throw new Error(`${JSON.stringify(target)} is neither a queue URL nor an s3:// location\n${USAGE}`);
}

async function main(args: readonly string[]): Promise<number> {
  let command: ReplayCommand;
  try {
    command = parseCommand(args);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  const { source, dryRun, max } = command;
  const from =
    source.kind === 'queue'
      ? queueSource(new SQSClient({ region: source.region }), source.queueUrl, { dryRun, max })
      : // The bucket's own region whatever the profile's: S3 redirects, the client follows.
        bucketSource(new S3Client({ followRegionRedirects: true }), source.bucket, source.location);
  const summary = await replay(from, lambdaInvoker(), { dryRun, max });
  return summary.failed.length || summary.refused.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
      process.exit(1);
    },
  );
}
