import { Duration, type Stack } from 'aws-cdk-lib';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { FailedRuns } from '../failed-runs';
import type { Settings } from './settings';

/**
 * Where work that failed out of sight of any caller is kept for replay (npm run replay, README
 * runbook): the dead-letter queue takes the timers Scheduler could not deliver and the failed
 * asynchronous runs (timers, recurring jobs, mail feedback); infra/failed-runs.ts adds the bucket of
 * failed stream batches and the destinations that fill both.
 */
export class FailedWork {
  readonly deadLetterQueue: Queue;
  readonly runs: FailedRuns;

  constructor(stack: Stack, { removalPolicy, isProd }: Settings, accessLogsBucket: Bucket) {
    this.deadLetterQueue = new Queue(stack, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // SQS's longest: time to read, fix the cause and replay (README runbook).
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    this.runs = new FailedRuns(stack, 'FailedRuns', {
      queue: this.deadLetterQueue,
      accessLogsBucket,
      removalPolicy,
      autoDeleteObjects: !isProd,
    });
  }
}
