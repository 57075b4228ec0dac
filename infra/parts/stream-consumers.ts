import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { FilterCriteria, MetricType, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { FailedRuns } from '../failed-runs';
import { MAX_STREAM_READERS, streamConsumers, type StreamConsumerDef } from '../../shared/routes';
import type { Functions } from './functions';
import type { Mail } from './mail';
import type { Secrets } from './secrets';
import { pascal, type Settings } from './settings';

/**
 * The table stream's consumers (shared/routes.ts `streamConsumers`), at most MAX_STREAM_READERS of
 * them: each is one reader of every shard. The event source mapping applies the manifest's filters,
 * so only the records a consumer wants invoke it. A failed record is
 * retried twice and then left, split out of its batch so the others go on; the consumer reports
 * which ones failed.
 */
export class StreamConsumers {
  /** The consumers, by name. */
  readonly functions: Record<string, NodejsFunction> = {};
  /** Each consumer's event source mapping id, whose failed batches the alarms count. */
  readonly failedBatchMappings: Record<string, string> = {};

  constructor(
    { stage }: Settings,
    { functions, table, failedRuns, mail, secrets }: { functions: Functions; table: ITable; failedRuns: FailedRuns; mail: Mail; secrets: Secrets },
  ) {
    if (streamConsumers.length > MAX_STREAM_READERS) {
      throw new Error(`The table stream has ${streamConsumers.length} consumers; DynamoDB Streams serves at most ${MAX_STREAM_READERS} readers of a shard. Group the work into fewer (shared/stream/routes.ts).`);
    }
    for (const consumer of streamConsumers as readonly StreamConsumerDef[]) {
      const fn = functions.create(`${pascal(consumer.name)}Stream`, consumer.name, {
        description: `Table stream consumer ${consumer.name} (${stage})`,
        environment: { ...functions.environment, ...(consumer.push ? secrets.pushEnvironment : {}), ...(consumer.mail ? mail.environment : {}) },
        role: functions.roleFor({ table: consumer, own: consumer.name }),
      });
      // The one function that sends mail may send it, from our address, through our configuration set.
      if (consumer.mail) mail.grantSend(fn);
      const source = new DynamoEventSource(table, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 25,
        bisectBatchOnError: true,
        retryAttempts: 2,
        reportBatchItemFailures: true,
        filters: consumer.filters.map((filter) => FilterCriteria.filter(filter)),
        // A batch still failing after its retries is written whole (the records, not pointers into
        // a stream that keeps them 24 hours) to the failed-batch bucket, to replay at any time.
        onFailure: failedRuns.batchDestination(),
        // Counts of what reached the destination or was dropped, for the alarms (infra/monitoring.ts).
        metricsConfig: { metrics: [MetricType.EVENT_COUNT] },
      });
      fn.addEventSource(source);
      this.failedBatchMappings[consumer.name] = source.eventSourceMappingId;
      this.functions[consumer.name] = fn;
    }
  }

  /** The links in mail open the site: its public address, known only once the distribution is. */
  tellSiteUrl(siteUrl: string): void {
    for (const consumer of streamConsumers as readonly StreamConsumerDef[]) {
      if (consumer.mail) this.functions[consumer.name]?.addEnvironment('SITE_URL', siteUrl);
    }
  }
}
