import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { DlqDestinationConfig, IEventSourceDlq, IEventSourceMapping, IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/**
 * Lambda's own retries of an asynchronous invocation that failed (the most it allows), 1 and 2
 * minutes apart; every timer and recurring job is written to survive running twice.
 */
export const ASYNC_RETRY_ATTEMPTS = 2;
/** How long Lambda keeps trying an asynchronous event (throttled, say) before it is a failed run. */
export const ASYNC_MAX_EVENT_AGE = Duration.hours(6);
/** How long a failed stream batch is kept for replay; it holds notification text, so not forever. */
export const FAILED_BATCH_DAYS = 90;

export interface FailedRunsProps {
  /** The dead-letter queue, which also takes what Scheduler could not deliver. */
  queue: IQueue;
  /** Where the failed-batch bucket's server access logs go. */
  accessLogsBucket: IBucket;
  removalPolicy: RemovalPolicy;
  /** Empty the bucket when the stack goes (the stages that do not keep their data). */
  autoDeleteObjects: boolean;
}

/**
 * Keeps what a function failed to do, with what it was given, so it can be replayed (infra/ops/replay.ts,
 * `npm run replay`). Scheduler's dead-letter queue only catches deliveries Scheduler could not make;
 * once Lambda has accepted the event, a timer or recurring job that throws is Lambda's to retry and
 * then drop. Here its on-failure destination puts the record of the run, with the original
 * `requestPayload`, in the same queue. A stream consumer's failed batch goes to a bucket instead:
 * on SQS, Lambda writes only the batch's shard and sequence numbers, pointing into a stream that
 * keeps records for 24 hours, while on S3 it writes the whole invocation payload.
 */
export class FailedRuns extends Construct {
  readonly queue: IQueue;
  /** Failed stream batches, one object per batch (Lambda names them aws/lambda/<mapping>/<shard>/...). */
  readonly batchesBucket: Bucket;
  /** The functions whose failed asynchronous runs go to the queue. */
  readonly asyncFunctions: IFunction[] = [];

  constructor(scope: Construct, id: string, props: FailedRunsProps) {
    super(scope, id);
    this.queue = props.queue;
    this.batchesBucket = new Bucket(this, 'FailedBatches', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: 'failed-batches/',
      removalPolicy: props.removalPolicy,
      autoDeleteObjects: props.autoDeleteObjects,
      lifecycleRules: [{ id: 'expire-failed-batches', expiration: Duration.days(FAILED_BATCH_DAYS) }],
    });
  }

  /** An asynchronously invoked function (a Scheduler target): retried by Lambda, then recorded in the queue. */
  keepFailedRuns(fn: IFunction): void {
    fn.configureAsyncInvoke({
      onFailure: new SqsDestination(this.queue),
      retryAttempts: ASYNC_RETRY_ATTEMPTS,
      maxEventAge: ASYNC_MAX_EVENT_AGE,
    });
    this.asyncFunctions.push(fn);
  }

  /**
   * The on-failure destination of a stream event source mapping. Lambda writes with the function's
   * role, which gets what the documentation asks for (s3:PutObject and s3:ListBucket) on this
   * bucket alone, rather than the read, write and delete of aws-cdk-lib's S3OnFailureDestination.
   */
  batchDestination(): IEventSourceDlq {
    const bucket = this.batchesBucket;
    return {
      bind(_mapping: IEventSourceMapping, handler: IFunction): DlqDestinationConfig {
        handler.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: ['s3:PutObject'], resources: [bucket.arnForObjects('*')] }));
        handler.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
        return { destination: bucket.bucketArn };
      },
    };
  }
}
