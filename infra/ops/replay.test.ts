import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, type GetObjectCommandInput } from '@aws-sdk/client-s3';
import { DeleteMessageCommand, ReceiveMessageCommand, SQSClient, type Message } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { jobsRepo } from '../../functions/jobs/data/jobs';
import { dispatchableWorker, north, offeredJob, testCategory, testPlace } from '../../functions/testing/dispatch';
import { lambdaContext, loadHandler } from '../local/http-api';
import { ensureBucket, localS3Client } from '../local/s3';
import { LOCAL_CREDENTIALS, LOCAL_TIMER_TARGET_PREFIX } from '../local/stack';
import { bucketSource, lambdaInvoker, parseCommand, queueSource, replay, type Invocation, type Invoker } from './replay';

/**
 * Invokes the real handler of the function an ARN names, in this process against the test stack's
 * data, answering as Lambda's Invoke does: the handler's result, or a function error.
 */
function localInvoker(calls: { functionArn: string; payload: unknown }[] = []): Invoker {
  return async (functionArn, payload): Promise<Invocation> => {
    calls.push({ functionArn, payload });
    if (!functionArn.startsWith(LOCAL_TIMER_TARGET_PREFIX)) throw new Error(`ResourceNotFoundException: Function not found: ${functionArn}`);
    const name = functionArn.slice(LOCAL_TIMER_TARGET_PREFIX.length);
    const handler = (await loadHandler(name)) as unknown as (event: unknown, context: unknown) => Promise<unknown>;
    try {
      return { response: (await handler(payload, lambdaContext(name))) ?? null };
    } catch (error) {
      return { functionError: 'Unhandled', response: { errorType: (error as Error).name, errorMessage: (error as Error).message } };
    }
  };
}

const quiet = () => {};
const arnOf = (name: string) => `${LOCAL_TIMER_TARGET_PREFIX}${name}`;
const queueUrl = 'https://sqs.us-east-1.amazonaws.com/123456789012/Marketplace-prod-DeadLetterQueue9F481546-AbCdEfGh';

/** Lambda's on-failure record of an asynchronous invocation (the shape AWS documents). */
const failedRun = (name: string, payload: unknown) =>
  JSON.stringify({
    version: '1.0',
    timestamp: new Date().toISOString(),
    requestContext: { requestId: randomUUID(), functionArn: `${arnOf(name)}:$LATEST`, condition: 'RetriesExhausted', approximateInvokeCount: 3 },
    requestPayload: payload,
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: { errorType: 'TimeoutError', errorMessage: 'Task timed out after 10.00 seconds' },
  });

const message = (body: string, attributes: Record<string, string> = {}): Message => ({
  MessageId: randomUUID(),
  ReceiptHandle: `handle-${randomUUID()}`,
  Body: body,
  MessageAttributes: Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, { DataType: 'String', StringValue: value }])),
});

/** A job whose offer to one worker has expired, with a second worker next in line. */
async function jobWithExpiredOffer() {
  const [category, place] = [testCategory(), testPlace()];
  const first = await dispatchableWorker(category, north(place, 1));
  const next = await dispatchableWorker(category, north(place, 2));
  const job = await offeredJob(category, [first.id], -1, place);
  return { job, first, next };
}

describe('replay: failed timer and recurring runs from the dead-letter queue', () => {
  const sqsMock = mockClient(SQSClient);
  beforeEach(() => sqsMock.reset());
  afterAll(() => sqsMock.restore());

  /** The queue holds these messages once; a second receive finds it drained. */
  function queueHolding(...messages: Message[]) {
    sqsMock.on(ReceiveMessageCommand).resolvesOnce({ Messages: messages }).resolves({ Messages: [] });
    sqsMock.on(DeleteMessageCommand).resolves({});
  }
  const deleted = () => sqsMock.commandCalls(DeleteMessageCommand).map((call) => call.args[0].input.ReceiptHandle);

  it("re-runs a failed timer with its original payload, so the job stuck on an expired offer moves on, and only then deletes the message", async () => {
    // Prepare
    const { job, first, next } = await jobWithExpiredOffer();
    const stuck = message(failedRun('expire-offer', { jobId: job.id, workerId: first.id }));
    queueHolding(stuck);

    // Act
    const summary = await replay(queueSource(new SQSClient({ region: 'us-east-1' }), queueUrl), localInvoker(), { log: quiet });

    // Assess
    const after = await jobsRepo.findById(job.id);
    expect(Object.keys(after!.offers)).toEqual([next.id]);
    expect(summary.replayed).toEqual([stuck.MessageId]);
    expect(deleted()).toEqual([stuck.ReceiptHandle]);
    const receive = sqsMock.commandCalls(ReceiveMessageCommand)[0]!.args[0].input;
    expect(receive).toMatchObject({ QueueUrl: queueUrl, VisibilityTimeout: 900, MessageAttributeNames: ['All'] });
  });

  it("re-sends an undelivered schedule's input (Scheduler's dead-letter event) to the function it targeted", async () => {
    // Prepare
    const { job, first, next } = await jobWithExpiredOffer();
    const undelivered = message(JSON.stringify({ jobId: job.id, workerId: first.id }), {
      ERROR_CODE: 'AWS.Lambda.TooManyRequestsException',
      ERROR_MESSAGE: 'Rate Exceeded.',
      IS_PAYLOAD_TRUNCATED: 'false',
      RETRY_ATTEMPTS: '185',
      SCHEDULE_ARN: `arn:aws:scheduler:us-east-1:000000000000:schedule/Marketplace-prod-timers/offer-${job.id}-${first.id}`,
      TARGET_ARN: arnOf('expire-offer'),
    });
    queueHolding(undelivered);

    // Act
    const summary = await replay(queueSource(new SQSClient({ region: 'us-east-1' }), queueUrl), localInvoker(), { log: quiet });

    // Assess
    expect(Object.keys((await jobsRepo.findById(job.id))!.offers)).toEqual([next.id]);
    expect(summary.replayed).toEqual([undelivered.MessageId]);
    expect(deleted()).toEqual([undelivered.ReceiptHandle]);
  });

  it('changes nothing when the same run is replayed twice (a crash between the run and the delete)', async () => {
    // Prepare
    const { job, first } = await jobWithExpiredOffer();
    const body = failedRun('expire-offer', { jobId: job.id, workerId: first.id });
    queueHolding(message(body));
    await replay(queueSource(new SQSClient({ region: 'us-east-1' }), queueUrl), localInvoker(), { log: quiet });
    const once = await jobsRepo.findById(job.id);
    sqsMock.reset();
    queueHolding(message(body));

    // Act
    const summary = await replay(queueSource(new SQSClient({ region: 'us-east-1' }), queueUrl), localInvoker(), { log: quiet });

    // Assess
    expect(summary.replayed).toHaveLength(1);
    const twice = await jobsRepo.findById(job.id);
    expect(twice!.offers).toEqual(once!.offers);
    expect(twice!.tried).toEqual(once!.tried);
  });

  it('keeps a message whose run fails again, and one it cannot replay, each with the reason, and goes on with the others', async () => {
    // Prepare
    const { job, first } = await jobWithExpiredOffer();
    const failsAgain = message(failedRun('expire-offer', { jobId: job.id, workerId: first.id }));
    const pointerOnly = message(
      JSON.stringify({
        requestContext: { requestId: randomUUID(), functionArn: arnOf('follow-table-changes'), condition: 'RetryAttemptsExhausted', approximateInvokeCount: 3 },
        responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
        version: '1.0',
        timestamp: new Date().toISOString(),
        DDBStreamBatchInfo: { shardId: 'shardId-1', startSequenceNumber: '1', endSequenceNumber: '2', batchSize: 2, streamArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/s' },
      }),
    );
    const noSuchFunction = message(failedRun('no-such-function', {}).replace(arnOf('no-such-function'), 'arn:aws:lambda:us-east-1:000000000000:function:gone'));
    queueHolding(failsAgain, pointerOnly, noSuchFunction);
    const failing: Invoker = async () => ({ functionError: 'Unhandled', response: { errorType: 'TimeoutError', errorMessage: 'Task timed out' } });
    const invoker: Invoker = (arn, payload) => (arn === arnOf('expire-offer') ? failing(arn, payload) : localInvoker()(arn, payload));

    // Act
    const summary = await replay(queueSource(new SQSClient({ region: 'us-east-1' }), queueUrl), invoker, { log: quiet });

    // Assess
    expect(summary.replayed).toEqual([]);
    expect(summary.failed).toEqual([
      { id: failsAgain.MessageId, reason: 'Unhandled (TimeoutError: Task timed out)' },
      { id: noSuchFunction.MessageId, reason: expect.stringContaining('could not invoke it') },
    ]);
    expect(summary.refused).toEqual([{ id: pointerOnly.MessageId, reason: expect.stringContaining('24 hours') }]);
    expect(deleted()).toEqual([]);
  });

  it('in a dry run, says what it would replay, invokes nothing and hides the messages for a minute only', async () => {
    // Prepare
    const { job, first } = await jobWithExpiredOffer();
    const stuck = message(failedRun('expire-offer', { jobId: job.id, workerId: first.id }));
    queueHolding(stuck);
    const calls: { functionArn: string; payload: unknown }[] = [];
    const lines: string[] = [];

    // Act
    const summary = await replay(queueSource(new SQSClient({ region: 'us-east-1' }), queueUrl, { dryRun: true }), localInvoker(calls), {
      dryRun: true,
      log: (line) => lines.push(line),
    });

    // Assess
    expect(calls).toEqual([]);
    expect(deleted()).toEqual([]);
    expect(summary.wouldReplay).toEqual([{ id: stuck.MessageId, record: expect.objectContaining({ kind: 'failed-run', functionArn: arnOf('expire-offer') }) }]);
    expect(lines.join('\n')).toContain(`"jobId":"${job.id}"`);
    expect(sqsMock.commandCalls(ReceiveMessageCommand)[0]!.args[0].input.VisibilityTimeout).toBe(60);
    expect((await jobsRepo.findById(job.id))!.offers).toEqual(job.offers);
  });

  it('takes no more messages from the queue than --max replays', async () => {
    // Prepare
    const another = () => ({ Messages: [message(failedRun('expire-offer', { jobId: 'x', workerId: 'y' }))] });
    sqsMock.on(ReceiveMessageCommand).callsFake(another);
    sqsMock.on(DeleteMessageCommand).resolves({});

    // Act
    const summary = await replay(queueSource(new SQSClient({ region: 'us-east-1' }), queueUrl, { max: 2 }), async () => ({ response: null }), { max: 2, log: quiet });

    // Assess
    expect(summary.replayed).toHaveLength(2);
    expect(sqsMock.commandCalls(ReceiveMessageCommand).map((call) => call.args[0].input.MaxNumberOfMessages)).toEqual([2, 1]);
  });
});

describe('replay: failed stream batches from the failed-batch bucket', () => {
  const bucket = 'marketplace-local-failed-batches';
  const s3 = localS3Client(inject('s3Endpoint'), LOCAL_CREDENTIALS);
  const streamEvent = JSON.parse(readFileSync(new URL('../../events/deliver-push.json', import.meta.url), 'utf8')) as { Records: unknown[] };
  beforeAll(() => ensureBucket(s3, bucket));
  afterAll(() => s3.destroy());

  /** Lambda's on-failure record of a stream batch as the S3 destination writes it, at a key like Lambda's. */
  async function keptBatch(functionArn: string): Promise<string> {
    const key = `aws/lambda/${randomUUID()}/shardId-00000001573689847184-864758bb/2026/11/22/2026-11-22T15.00.49-${randomUUID()}`;
    const record = {
      requestContext: { requestId: randomUUID(), functionArn, condition: 'RetryAttemptsExhausted', approximateInvokeCount: 3 },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
      version: '1.0',
      timestamp: '2026-11-22T15:00:49.717Z',
      DDBStreamBatchInfo: {
        shardId: 'shardId-00000001573689847184-864758bb',
        startSequenceNumber: '000000000000000000001',
        endSequenceNumber: '000000000000000000001',
        approximateArrivalOfFirstRecord: '2026-11-22T15:00:19Z',
        approximateArrivalOfLastRecord: '2026-11-22T15:00:19Z',
        batchSize: 1,
        streamArn: 'arn:aws:dynamodb:us-east-1:000000000000:table/marketplace-local/stream/local',
      },
      payload: JSON.stringify(streamEvent),
    };
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify(record), ContentType: 'application/json' }));
    return key;
  }
  const stillThere = (key: string) =>
    s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
      () => true,
      (error: { name?: string }) => (error.name === 'NotFound' ? false : Promise.reject(error)),
    );

  it('invokes the consumer with the whole batch it failed on, then deletes the kept batch', async () => {
    // Prepare
    const key = await keptBatch(arnOf('follow-table-changes'));
    const calls: { functionArn: string; payload: unknown }[] = [];

    // Act
    const summary = await replay(bucketSource(s3, bucket, key), localInvoker(calls), { log: quiet });

    // Assess
    expect(calls).toEqual([{ functionArn: arnOf('follow-table-changes'), payload: streamEvent }]);
    expect(summary.replayed).toEqual([`s3://${bucket}/${key}`]);
    expect(await stillThere(key)).toBe(false);
  });

  it('keeps a batch whose records fail again, saying how many', async () => {
    // Prepare
    const key = await keptBatch(arnOf('follow-table-changes'));
    const failsAgain: Invoker = async () => ({ response: { batchItemFailures: [{ itemIdentifier: '000000000000000000001' }] } });

    // Act
    const summary = await replay(bucketSource(s3, bucket, key), failsAgain, { log: quiet });

    // Assess
    expect(summary.failed).toEqual([{ id: `s3://${bucket}/${key}`, reason: '1 of 1 records failed again' }]);
    expect(await stillThere(key)).toBe(true);
  });

  it('in a dry run, leaves the batch where it is and invokes nothing', async () => {
    // Prepare
    const key = await keptBatch(arnOf('follow-table-changes'));
    const calls: { functionArn: string; payload: unknown }[] = [];

    // Act
    const summary = await replay(bucketSource(s3, bucket, key), localInvoker(calls), { dryRun: true, log: quiet });

    // Assess
    expect(calls).toEqual([]);
    expect(summary.wouldReplay).toHaveLength(1);
    expect(await stillThere(key)).toBe(true);
  });

  it('reads every object under a prefix, across pages of the listing', async () => {
    // Prepare
    const listing = new S3Client({ region: 'us-east-1', endpoint: inject('s3Endpoint'), forcePathStyle: true, credentials: LOCAL_CREDENTIALS });
    const [first, second] = [await keptBatch(arnOf('follow-table-changes')), await keptBatch(arnOf('follow-table-changes'))];
    // The local S3 has no ListObjectsV2 (the marketplace never lists): its pages are played here.
    const lister = mockClient(listing);
    lister.on(ListObjectsV2Command).resolvesOnce({ Contents: [{ Key: first }], IsTruncated: true, NextContinuationToken: 'page-2' }).resolves({ Contents: [{ Key: second }], IsTruncated: false });
    // Each object it names is read from the local S3 for real.
    lister.on(GetObjectCommand).callsFake((input: GetObjectCommandInput) => s3.send(new GetObjectCommand(input)));
    const ids: string[] = [];
    const source = bucketSource(listing, bucket, 'aws/lambda/');

    // Act
    for await (const item of source.items()) ids.push(item.id);

    // Assess
    expect(ids).toEqual([`s3://${bucket}/${first}`, `s3://${bucket}/${second}`]);
    expect(lister.commandCalls(ListObjectsV2Command).map((call) => call.args[0].input.ContinuationToken)).toEqual([undefined, 'page-2']);
    lister.restore();
  });
});

describe('replay: invoking through the Lambda API', () => {
  const lambdaMock = mockClient(LambdaClient);
  afterAll(() => lambdaMock.restore());

  it('invokes synchronously with the payload, and reads a function error and its answer', async () => {
    // Prepare
    lambdaMock.on(InvokeCommand).resolves({
      StatusCode: 200,
      FunctionError: 'Unhandled',
      Payload: new TextEncoder().encode(JSON.stringify({ errorType: 'Error', errorMessage: 'boom' })) as never,
    });
    const arn = 'arn:aws:lambda:eu-west-1:123456789012:function:Marketplace-prod-expire-offer';
    const regions: string[] = [];

    // Act
    const answer = await lambdaInvoker((region) => {
      regions.push(region);
      return new LambdaClient({ region });
    })(arn, { jobId: 'j', workerId: 'w' });

    // Assess
    const input = lambdaMock.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(input.FunctionName).toBe(arn);
    expect(input.InvocationType).toBe('RequestResponse');
    expect(JSON.parse(new TextDecoder().decode(input.Payload as Uint8Array))).toEqual({ jobId: 'j', workerId: 'w' });
    expect(regions).toEqual(['eu-west-1']);
    expect(answer).toEqual({ functionError: 'Unhandled', response: { errorType: 'Error', errorMessage: 'boom' } });
  });
});

describe('replay: the command line', () => {
  it('takes the dead-letter queue URL, with its region, or an s3:// object or prefix', () => {
    // Act
    const queue = parseCommand([queueUrl, '--dry-run']);
    const object = parseCommand(['s3://marketplace-prod-failedbatches-abc/aws/lambda/uuid/shard/2026/11/22/x', '--max', '5']);
    const prefix = parseCommand(['s3://marketplace-prod-failedbatches-abc/aws/lambda/']);

    // Assess
    expect(queue).toEqual({ source: { kind: 'queue', queueUrl, region: 'us-east-1' }, dryRun: true, max: undefined });
    expect(object).toEqual({ source: { kind: 'bucket', bucket: 'marketplace-prod-failedbatches-abc', location: 'aws/lambda/uuid/shard/2026/11/22/x' }, dryRun: false, max: 5 });
    expect(prefix.source).toEqual({ kind: 'bucket', bucket: 'marketplace-prod-failedbatches-abc', location: 'aws/lambda/' });
  });

  it('refuses anything else with the usage', () => {
    // Act
    const none = () => parseCommand([]);
    const stranger = () => parseCommand(['https://example.com/queue']);
    const badMax = () => parseCommand([queueUrl, '--max', 'all']);
    const unknown = () => parseCommand([queueUrl, '--force']);

    // Assess
    expect(none).toThrow(/Give one source to replay from\nUsage: npm run replay/);
    expect(stranger).toThrow(/neither a queue URL nor an s3:\/\/ location/);
    expect(badMax).toThrow(/--max takes a whole number/);
    expect(unknown).toThrow(/Unknown option --force/);
  });
});
