/**
 * The records AWS keeps of work that failed, read back into "invoke this function with this
 * payload" (infra/ops/replay.ts). Three shapes reach us (infra/failed-runs.ts):
 *
 * - In the dead-letter queue, Lambda's on-failure record of an asynchronous invocation (a timer or
 *   a recurring job that threw after Lambda's retries): `requestContext.functionArn` and the
 *   original `requestPayload`.
 * - In the dead-letter queue, Scheduler's dead-letter event (a schedule it could not deliver): the
 *   body is the schedule's input, the message attributes name the target (`TARGET_ARN`).
 * - In the failed-batch bucket, Lambda's on-failure record of a stream batch: the batch's
 *   `DDBStreamBatchInfo` and, on S3 only, the whole invocation `payload`.
 *
 * Anything else is refused with the reason, never guessed at.
 */

export type FailureRecord =
  | {
      kind: 'failed-run';
      /** The function's ARN (unqualified: $LATEST is what the stack deploys). */
      functionArn: string;
      payload: unknown;
      /** RetriesExhausted or EventAgeExceeded. */
      condition: string;
      /** What the function answered, when it threw. */
      error?: string;
      at?: string;
    }
  | {
      kind: 'undelivered-schedule';
      functionArn: string;
      payload: unknown;
      /** Scheduler's ERROR_CODE and ERROR_MESSAGE. */
      error?: string;
      schedule?: string;
      at?: string;
    }
  | {
      kind: 'failed-batch';
      functionArn: string;
      /** The stream event the consumer was invoked with: `{ Records: [...] }`. */
      payload: { Records: unknown[] };
      condition: string;
      error?: string;
      at?: string;
    };

/** A record that cannot be replayed as it stands, with what to do about it. */
export class UnreplayableRecord extends Error {
  override name = 'UnreplayableRecord';
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** arn:<partition>:lambda:<region>:<account>:function:<name>[:<qualifier>] */
const FUNCTION_ARN = /^(arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:[A-Za-z0-9_-]{1,140})(?::([A-Za-z0-9$_-]+))?$/;

/** The function to invoke again: the unqualified ARN for $LATEST, else with its version or alias. */
export function invocableArn(functionArn: unknown): string {
  const match = FUNCTION_ARN.exec(text(functionArn) ?? '');
  if (!match) throw new UnreplayableRecord(`The record names no Lambda function ARN (got ${JSON.stringify(functionArn)}).`);
  const [, unqualified, qualifier] = match;
  return qualifier && qualifier !== '$LATEST' ? `${unqualified}:${qualifier}` : unqualified!;
}

/** The region a function ARN is in (its Lambda client's region). */
export function regionOf(functionArn: string): string {
  return functionArn.split(':')[3]!;
}

function parseJson(body: string, what: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new UnreplayableRecord(`${what} is not JSON: ${body.slice(0, 80)}`);
  }
}

/** Lambda's responseContext/responsePayload, as one line for the operator. */
function errorOf(record: Json): string | undefined {
  const response = isObject(record.responsePayload) ? record.responsePayload : undefined;
  const context = isObject(record.responseContext) ? record.responseContext : undefined;
  const parts = [text(response?.errorType), text(response?.errorMessage) ?? text(context?.functionError)].filter(Boolean);
  return parts.length ? parts.join(': ') : undefined;
}

const streamPointerOnly = (info: Json) =>
  new UnreplayableRecord(
    'This record only points into the table stream (shard ' +
      `${String(info.shardId)}, sequence numbers ${String(info.startSequenceNumber)} to ${String(info.endSequenceNumber)}), ` +
      'whose records are kept 24 hours: it was written before failed batches went to the failed-batch bucket. ' +
      'Read the records with `aws dynamodbstreams get-shard-iterator` and `get-records` while they last, or delete the message.',
  );

/**
 * A dead-letter queue message: its body and its message attributes (string values by name).
 * Lambda's on-failure record, or Scheduler's dead-letter event.
 */
export function parseQueueMessage(body: string, attributes: Readonly<Record<string, string>> = {}): FailureRecord {
  const targetArn = attributes.TARGET_ARN;
  if (targetArn !== undefined) {
    // Scheduler's dead-letter event: the schedule's input as it would have been sent.
    if (attributes.IS_PAYLOAD_TRUNCATED === 'true') {
      throw new UnreplayableRecord(
        `Scheduler truncated the input of this undelivered schedule (${attributes.SCHEDULE_ARN ?? 'unknown schedule'}): ` +
          'replaying it would send something else. Run the function by hand with the input it should have had.',
      );
    }
    const error = [attributes.ERROR_CODE, attributes.ERROR_MESSAGE].filter(Boolean).join(': ') || undefined;
    return {
      kind: 'undelivered-schedule',
      functionArn: invocableArn(targetArn),
      payload: parseJson(body, 'The undelivered schedule input'),
      error,
      schedule: attributes.SCHEDULE_ARN,
      at: attributes.SCHEDULED_TIME,
    };
  }
  const record = parseJson(body, 'The message');
  if (!isObject(record) || !isObject(record.requestContext)) {
    throw new UnreplayableRecord('The message is neither a Lambda on-failure record nor a Scheduler dead-letter event.');
  }
  if (isObject(record.DDBStreamBatchInfo)) throw streamPointerOnly(record.DDBStreamBatchInfo);
  if (!('requestPayload' in record)) {
    throw new UnreplayableRecord('This on-failure record carries no requestPayload (Lambda leaves it out past the destination\'s size limit): run the function by hand.');
  }
  return {
    kind: 'failed-run',
    functionArn: invocableArn(record.requestContext.functionArn),
    payload: record.requestPayload,
    condition: text(record.requestContext.condition) ?? 'unknown',
    error: errorOf(record),
    at: text(record.timestamp),
  };
}

/** An object of the failed-batch bucket: Lambda's on-failure record of a stream batch, with its payload. */
export function parseBatchObject(body: string): FailureRecord {
  const record = parseJson(body, 'The failed-batch object');
  if (!isObject(record) || !isObject(record.requestContext) || !isObject(record.DDBStreamBatchInfo)) {
    throw new UnreplayableRecord('The object is not a Lambda on-failure record of a stream batch.');
  }
  if (record.payload === undefined) throw streamPointerOnly(record.DDBStreamBatchInfo);
  // Lambda writes the invocation payload as a JSON string; an object is read the same.
  const payload = typeof record.payload === 'string' ? parseJson(record.payload, 'The batch payload') : record.payload;
  if (!isObject(payload) || !Array.isArray(payload.Records)) {
    throw new UnreplayableRecord('The batch payload has no Records: it is not a stream event.');
  }
  return {
    kind: 'failed-batch',
    functionArn: invocableArn(record.requestContext.functionArn),
    payload: { ...payload, Records: payload.Records },
    condition: text(record.requestContext.condition) ?? 'unknown',
    error: errorOf(record),
    at: text(record.timestamp),
  };
}

/**
 * Whether what the function answered means the replay worked: no function error, and for a stream
 * batch no record reported failed again (partial batch responses).
 */
export function replaySucceeded(record: FailureRecord, outcome: { functionError?: string; response?: unknown }): { ok: true } | { ok: false; reason: string } {
  if (outcome.functionError) {
    const response = isObject(outcome.response) ? outcome.response : {};
    const detail = [text(response.errorType), text(response.errorMessage)].filter(Boolean).join(': ');
    return { ok: false, reason: `${outcome.functionError}${detail ? ` (${detail})` : ''}` };
  }
  if (record.kind === 'failed-batch' && isObject(outcome.response) && Array.isArray(outcome.response.batchItemFailures)) {
    const failures = outcome.response.batchItemFailures.length;
    if (failures) return { ok: false, reason: `${failures} of ${record.payload.Records.length} records failed again` };
  }
  return { ok: true };
}
