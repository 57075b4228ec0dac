import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { invocableArn, parseBatchObject, parseQueueMessage, replaySucceeded, UnreplayableRecord } from './failure-records';

// The records below have the shapes AWS documents: Lambda's on-failure invocation record
// (asynchronous invocation, and a DynamoDB stream batch, whose S3 copy adds the payload), and
// EventBridge Scheduler's dead-letter event (the input as body, the details as message attributes).

const timerArn = 'arn:aws:lambda:us-east-1:123456789012:function:Marketplace-prod-expire-offer';
const consumerArn = 'arn:aws:lambda:us-east-1:123456789012:function:Marketplace-prod-DeliverPushStreamFn1A2B3C4D-x1Y2z3';
const streamArn = 'arn:aws:dynamodb:us-east-1:123456789012:table/Marketplace-prod-Table1234-ABCD/stream/2026-11-14T00:04:06.388';
const timerInput = { jobId: 'AbCdEfGhIjKlMnOpQrStUv', workerId: 'WkR1a2b3c4d5e6f7g8h9iJ' };
const streamEvent = JSON.parse(readFileSync(new URL('../../events/deliver-push.json', import.meta.url), 'utf8')) as { Records: unknown[] };

/** Lambda's record of an asynchronous invocation that failed all its attempts. */
const asyncFailure = {
  version: '1.0',
  timestamp: '2026-11-22T15:02:05.568Z',
  requestContext: {
    requestId: 'e4b46cbf-b738-4a6d-8880-a18cdf61200e',
    functionArn: `${timerArn}:$LATEST`,
    condition: 'RetriesExhausted',
    approximateInvokeCount: 3,
  },
  requestPayload: timerInput,
  responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
  responsePayload: { errorType: 'ProvisionedThroughputExceededException', errorMessage: 'Rate of requests exceeds the allowed throughput.', trace: [] },
};

/** Scheduler's dead-letter event: the schedule's input, and what went wrong in the attributes. */
const schedulerAttributes = {
  ERROR_CODE: 'AWS.Lambda.TooManyRequestsException',
  ERROR_MESSAGE: 'Rate Exceeded.',
  EXECUTION_ID: '4b7d1c4e-4d8f-4a1e-9c8e-2f6d5b1a3c7e',
  EXHAUSTED_RETRY_CONDITION: 'MaximumRetryAttempts',
  IS_PAYLOAD_TRUNCATED: 'false',
  RETRY_ATTEMPTS: '185',
  SCHEDULED_TIME: '2026-11-22T15:02:00Z',
  SCHEDULE_ARN: 'arn:aws:scheduler:us-east-1:123456789012:schedule/Marketplace-prod-timers/offer-AbCdEfGhIjKlMnOpQrStUv-WkR1a2b3c4d5e6f7g8h9iJ',
  TARGET_ARN: timerArn,
};

/** Lambda's record of a stream batch that failed its retries, as the S3 destination keeps it. */
const batchInfo = {
  shardId: 'shardId-00000001573689847184-864758bb',
  startSequenceNumber: '800000000003126276362',
  endSequenceNumber: '800000000003126276362',
  approximateArrivalOfFirstRecord: '2026-11-22T15:00:19Z',
  approximateArrivalOfLastRecord: '2026-11-22T15:00:19Z',
  batchSize: 1,
  streamArn,
};
const batchFailure = {
  requestContext: { requestId: '316aa6d0-8154-4d2e-9af7-85d5f4a6bc81', functionArn: consumerArn, condition: 'RetryAttemptsExhausted', approximateInvokeCount: 3 },
  responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
  version: '1.0',
  timestamp: '2026-11-22T15:00:49.717Z',
  DDBStreamBatchInfo: batchInfo,
  payload: JSON.stringify(streamEvent),
};

describe('failure records: the dead-letter queue', () => {
  it("reads a failed timer run's on-failure record as its function and original payload", () => {
    // Act
    const record = parseQueueMessage(JSON.stringify(asyncFailure));

    // Assess
    expect(record).toEqual({
      kind: 'failed-run',
      functionArn: timerArn,
      payload: timerInput,
      condition: 'RetriesExhausted',
      error: 'ProvisionedThroughputExceededException: Rate of requests exceeds the allowed throughput.',
      at: '2026-11-22T15:02:05.568Z',
    });
  });

  it("reads Scheduler's dead-letter event as its target and the schedule's input", () => {
    // Act
    const record = parseQueueMessage(JSON.stringify(timerInput), schedulerAttributes);

    // Assess
    expect(record).toEqual({
      kind: 'undelivered-schedule',
      functionArn: timerArn,
      payload: timerInput,
      error: 'AWS.Lambda.TooManyRequestsException: Rate Exceeded.',
      schedule: schedulerAttributes.SCHEDULE_ARN,
      at: '2026-11-22T15:02:00Z',
    });
  });

  it('refuses an undelivered schedule whose input Scheduler truncated, rather than replay part of it', () => {
    // Act
    const read = () => parseQueueMessage('{"jobId":"AbCd', { ...schedulerAttributes, IS_PAYLOAD_TRUNCATED: 'true' });

    // Assess
    expect(read).toThrow(UnreplayableRecord);
    expect(read).toThrow(/truncated the input/);
  });

  it("refuses a stream record that only points into the table's stream, saying the records last 24 hours", () => {
    // Prepare: what the stream consumers wrote to the queue before their batches went to the bucket
    const { payload: _payload, ...pointerOnly } = batchFailure;

    // Act
    const read = () => parseQueueMessage(JSON.stringify(pointerOnly));

    // Assess
    expect(read).toThrow(UnreplayableRecord);
    expect(read).toThrow(/shardId-00000001573689847184-864758bb.*24 hours/s);
  });

  it('refuses a message that is no failure record, and one without its request payload', () => {
    // Act
    const notJson = () => parseQueueMessage('hello');
    const stranger = () => parseQueueMessage(JSON.stringify({ hello: 'world' }));
    const { requestPayload: _payload, ...withoutPayload } = asyncFailure;
    const payloadless = () => parseQueueMessage(JSON.stringify(withoutPayload));

    // Assess
    expect(notJson).toThrow(/not JSON/);
    expect(stranger).toThrow(/neither a Lambda on-failure record nor a Scheduler dead-letter event/);
    expect(payloadless).toThrow(/no requestPayload/);
  });
});

describe('failure records: the failed-batch bucket', () => {
  it('reads a failed stream batch as its consumer and the whole stream event it was given', () => {
    // Act
    const record = parseBatchObject(JSON.stringify(batchFailure));

    // Assess
    expect(record).toEqual({
      kind: 'failed-batch',
      functionArn: consumerArn,
      payload: streamEvent,
      condition: 'RetryAttemptsExhausted',
      error: 'Unhandled',
      at: '2026-11-22T15:00:49.717Z',
    });
  });

  it('reads the payload the same when it is an object rather than a JSON string', () => {
    // Act
    const record = parseBatchObject(JSON.stringify({ ...batchFailure, payload: streamEvent }));

    // Assess
    expect(record.payload).toEqual(streamEvent);
  });

  it('refuses a batch record without its payload or whose payload is no stream event', () => {
    // Prepare
    const { payload: _payload, ...pointerOnly } = batchFailure;

    // Act
    const withoutPayload = () => parseBatchObject(JSON.stringify(pointerOnly));
    const notAStreamEvent = () => parseBatchObject(JSON.stringify({ ...batchFailure, payload: '{"hello":1}' }));
    const asyncRecord = () => parseBatchObject(JSON.stringify(asyncFailure));

    // Assess
    expect(withoutPayload).toThrow(/24 hours/);
    expect(notAStreamEvent).toThrow(/no Records/);
    expect(asyncRecord).toThrow(/not a Lambda on-failure record of a stream batch/);
  });
});

describe('failure records: invoking again', () => {
  it('invokes $LATEST as the unqualified function and keeps any other version or alias', () => {
    // Act
    const latest = invocableArn(`${timerArn}:$LATEST`);
    const plain = invocableArn(timerArn);
    const alias = invocableArn(`${timerArn}:live`);

    // Assess
    expect(latest).toBe(timerArn);
    expect(plain).toBe(timerArn);
    expect(alias).toBe(`${timerArn}:live`);
    expect(() => invocableArn('arn:aws:sqs:us-east-1:123456789012:queue')).toThrow(UnreplayableRecord);
  });

  it('counts a replay as done only without a function error and, for a batch, without records failing again', () => {
    // Prepare
    const run = parseQueueMessage(JSON.stringify(asyncFailure));
    const batch = parseBatchObject(JSON.stringify(batchFailure));

    // Act
    const ran = replaySucceeded(run, { response: null });
    const threw = replaySucceeded(run, { functionError: 'Unhandled', response: { errorType: 'Error', errorMessage: 'boom' } });
    const batchDone = replaySucceeded(batch, { response: { batchItemFailures: [] } });
    const batchAgain = replaySucceeded(batch, { response: { batchItemFailures: [{ itemIdentifier: '000000000000000000001' }] } });

    // Assess
    expect(ran).toEqual({ ok: true });
    expect(threw).toEqual({ ok: false, reason: 'Unhandled (Error: boom)' });
    expect(batchDone).toEqual({ ok: true });
    expect(batchAgain).toEqual({ ok: false, reason: '1 of 1 records failed again' });
  });
});
