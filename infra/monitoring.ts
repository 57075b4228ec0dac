import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** CloudWatch alarms take at most 10 metrics in one math expression. */
export const METRICS_PER_ALARM = 10;

/** The 5xx share of the HTTP API's requests (percent, per 5 minutes) that raises the alarm. */
export const API_5XX_PERCENT = 5;
/** Fewer requests than this in 5 minutes are too few to judge a rate by (one failure of two is not 50% down). */
export const API_5XX_MIN_REQUESTS = 20;
/** How far behind the table's stream a consumer may fall before someone should look. */
export const ITERATOR_AGE_MS = 5 * 60 * 1000;

export interface MonitoringProps {
  stage: string;
  removalPolicy: RemovalPolicy;
  /** The HTTP API and its stage name ('$default'). */
  httpApiId: string;
  httpStageName: string;
  /** Every function of the stack: route, timer, socket, stream and recurring. */
  functions: readonly IFunction[];
  /** The dead-letter queue of the timers, the recurring jobs and the stream consumers. */
  deadLetterQueue: IQueue;
  /** The table stream's consumers by name, whose iterator age is watched. */
  streamConsumers: Readonly<Record<string, IFunction>>;
  /** Where the alarms are mailed (context "alarmEmail"); none: subscribe to the topic yourself. */
  alarmEmail?: string;
}

/**
 * The alarms of issue 9 and the topic they notify (DESIGN.md section 1: what an operator watches).
 * Lambda errors are summed ten functions to an alarm (CloudWatch's limit per math expression) rather
 * than one alarm per function: some ninety alarms would take the stack past CloudFormation's 500
 * resources, and the alarm names which functions it covers.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly key: Key;
  readonly api5xxAlarm: Alarm;
  readonly lambdaErrorAlarms: Alarm[] = [];
  readonly deadLetterAlarm: Alarm;
  readonly iteratorAgeAlarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { stage } = props;

    // CloudWatch cannot publish to a topic encrypted with the AWS-managed SNS key (its key policy
    // admits no service principals), so the topic has a key of its own that CloudWatch may use.
    this.key = new Key(this, 'AlarmTopicKey', {
      description: `Encrypts the alarm topic of the home-services marketplace (${stage})`,
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
      pendingWindow: Duration.days(7),
    });
    this.key.addToResourcePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
      }),
    );
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: `Marketplace alarms (${stage})`,
      masterKey: this.key,
      enforceSSL: true,
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const notify = new SnsAction(this.topic);
    const alarm = (id: string, options: ConstructorParameters<typeof Alarm>[2]) => {
      const created = new Alarm(this, id, options);
      created.addAlarmAction(notify);
      created.addOkAction(notify);
      return created;
    };

    // ---- HTTP API: the share of requests answered 5xx -----------------------------------------
    const apiMetric = (metricName: string) =>
      new Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ApiId: props.httpApiId, Stage: props.httpStageName },
        statistic: 'Sum',
        period: Duration.minutes(5),
      });
    this.api5xxAlarm = alarm('Api5xxRate', {
      alarmDescription:
        `More than ${API_5XX_PERCENT}% of the HTTP API's requests answered 5xx in 5 minutes (with at least ` +
        `${API_5XX_MIN_REQUESTS} requests). Look at FunctionLogs for "Unhandled error" lines (their requestId) (${stage}).`,
      metric: new MathExpression({
        expression: `IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * errors / requests, 0)`,
        usingMetrics: { errors: apiMetric('5xx'), requests: apiMetric('Count') },
        period: Duration.minutes(5),
        label: '5xx %',
      }),
      threshold: API_5XX_PERCENT,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    // ---- Lambda errors (crashes and timeouts; handled 4xx/5xx answers are not errors) ----------
    for (let start = 0, n = 1; start < props.functions.length; start += METRICS_PER_ALARM, n++) {
      const group = props.functions.slice(start, start + METRICS_PER_ALARM);
      const usingMetrics: Record<string, IMetric> = {};
      group.forEach((fn, i) => {
        usingMetrics[`f${i}`] = fn.metricErrors({ statistic: 'Sum', period: Duration.minutes(5) });
      });
      this.lambdaErrorAlarms.push(
        alarm(`LambdaErrors${n}`, {
          alarmDescription: `A function failed (error or timeout) in the last 5 minutes (${stage}), one of: ${group.map((fn) => fn.functionName).join(', ')}.`,
          metric: new MathExpression({
            expression: `SUM([${Object.keys(usingMetrics).join(', ')}])`,
            usingMetrics,
            period: Duration.minutes(5),
            label: `Errors, functions group ${n}`,
          }),
          threshold: 0,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    }

    // ---- Dead letters: any message is a timer, a job run or a stream record that was lost -------
    this.deadLetterAlarm = alarm('DeadLetters', {
      alarmDescription:
        `A timer, recurring job or stream record could not be delivered and waits in the dead-letter queue (${stage}). ` +
        'See the README runbook: read the message, fix the cause, then replay or delete it.',
      metric: props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: Duration.minutes(5) }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    // ---- Stream consumers falling behind the table's stream ------------------------------------
    Object.entries(props.streamConsumers).forEach(([name, fn]) => {
      this.iteratorAgeAlarms.push(
        alarm(`IteratorAge-${name}`, {
          alarmDescription: `The table stream consumer ${name} is more than ${ITERATOR_AGE_MS / 60000} minutes behind the stream (${stage}).`,
          metric: fn.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(5) }),
          threshold: ITERATOR_AGE_MS,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    });
  }
}
