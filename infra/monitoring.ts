import { Aws, CfnCondition, Duration, Fn, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import type { CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData, type CfnAlarm, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { alarmedLogs, countedLogs, type CountedLog } from '../functions/common/counted-logs';
import { functionAreas } from '../shared/function-files';
import type { RouteDef } from '../shared/routes';
import {
  apiMetric as stageMetric,
  cloudFrontMetric,
  DYNAMODB_OPERATIONS,
  logMetricsNamespace,
  OperationsDashboards,
  SCHEDULER_FAILURE_METRICS,
  schedulerMetric,
  tableOperationMetric,
  type FunctionGroup,
} from './dashboard';
import { webSocketThrottle } from './throttling';

/** CloudWatch alarms take at most 10 metrics in one math expression. */
export const METRICS_PER_ALARM = 10;

/** The 5xx share of the HTTP API's requests (percent, per 5 minutes) that raises the alarm. */
export const API_5XX_PERCENT = 5;
/** Fewer requests than this in 5 minutes are too few to judge a rate by (one failure of two is not 50% down). */
export const API_5XX_MIN_REQUESTS = 20;
/** How far behind the table's stream a consumer may fall before someone should look. */
export const ITERATOR_AGE_MS = 5 * 60 * 1000;
/**
 * Requests answered 429 in 5 minutes that make a storm: someone hammering a login or a form, or a
 * client stuck in a retry loop. One person meeting a limit now and then stays well below.
 */
export const RATE_LIMITED_PER_5_MINUTES = 100;
/** The 5xx share of CloudFront's responses (percent, per 5 minutes) that raises the alarm, with enough requests to judge. */
export const CLOUDFRONT_5XX_PERCENT = 5;
export const CLOUDFRONT_5XX_MIN_REQUESTS = 20;
/** The only region CloudFront publishes its metrics to (and so the only one where an alarm on them can live). */
export const CLOUDFRONT_METRICS_REGION = 'us-east-1';

/**
 * A refused Stripe signature is watched minute by minute, so the first one pages within about five
 * minutes: a forgotten or rotated signing secret refuses every delivery, and Stripe's retries stop
 * after three days, so each hour unnoticed is payments that may never be recorded.
 */
export const WEBHOOK_REFUSED_PERIOD_SECONDS = 60;
/** The share of HTTP API requests answered 409 (percent, per 5 minutes) that raises the alarm, with enough requests to judge. */
export const CONFLICT_PERCENT = 5;
export const CONFLICT_MIN_REQUESTS = 20;
/**
 * The p99 duration (ms) of a route area's slowest function that raises its latency alarm, held for
 * LATENCY_PERIODS 5-minute periods in a row so that one slow cold burst does not page. Functions
 * time out at 10 s; a p99 of 3 s is a screen someone waits on. The owner's console reads and
 * exports whole ranges of jobs and is allowed longer.
 */
export const AREA_LATENCY_P99_MS: Readonly<Record<string, number>> = { owner: 6000 };
export const DEFAULT_LATENCY_P99_MS = 3000;
export const LATENCY_PERIODS = 3;
/**
 * /ws integration and execution errors in 5 minutes that raise the alarm. A single one (a function
 * that timed out once) is already paged by LambdaErrors; several mean frames are being lost.
 */
export const WEBSOCKET_SERVER_ERRORS_PER_5_MINUTES = 5;
/**
 * The share of /ws connects and messages refused with a 4xx before reaching a function (percent, per
 * 5 minutes), with at least WEBSOCKET_MIN_REQUESTS: the stage's throttle (429) is counted here, as
 * are refused connects.
 */
export const WEBSOCKET_CLIENT_ERROR_PERCENT = 5;
export const WEBSOCKET_MIN_REQUESTS = 100;

/**
 * Turns on the HTTP API's detailed metrics (per route: Count, 4xx, 5xx, Latency, ...), which the
 * dashboard then graphs by route next to its route tables. Only with context "detailedMetrics":
 * they are billed as custom metrics, six a route for every hour it is called, which at a small
 * business's traffic costs more than the rest of the stack (README: Deploying), while the route
 * tables read the access log for free until someone opens the dashboard. Set on the stage's
 * defaults and on every route that has settings of its own (the throttled ones), so that no
 * route's own settings leave them out.
 */
export function enableRouteMetrics(stage: CfnStage): void {
  const defaults = (stage.defaultRouteSettings ?? {}) as CfnStage.RouteSettingsProperty;
  stage.defaultRouteSettings = { ...defaults, detailedMetricsEnabled: true };
  // RouteSettings is a JSON map CloudFormation reads as is (PascalCase keys).
  const perRoute = (stage.routeSettings ?? {}) as Record<string, Record<string, unknown>>;
  stage.routeSettings = Object.fromEntries(Object.entries(perRoute).map(([key, settings]) => [key, { ...settings, DetailedMetricsEnabled: true }]));
}

export interface MonitoringProps {
  stage: string;
  removalPolicy: RemovalPolicy;
  /** The HTTP API and its stage name ('$default'). */
  httpApiId: string;
  httpStageName: string;
  /** The HTTP routes by route area (infra/route-areas.ts), and each route's function by route name. */
  routesByArea: ReadonlyMap<string, readonly Pick<RouteDef, 'name' | 'method' | 'path'>[]>;
  routeFunctions: Readonly<Record<string, IFunction>>;
  /** The other functions, by name. */
  timerFunctions: Readonly<Record<string, IFunction>>;
  socketFunctions: Readonly<Record<string, IFunction>>;
  recurringFunctions: Readonly<Record<string, IFunction>>;
  /** Functions fed by an SNS topic (the mail's bounce and complaint reports), by name: none without mail. */
  topicSubscribers?: Readonly<Record<string, IFunction>>;
  /** The table stream's consumers by name, whose iterator age is watched. */
  streamConsumers: Readonly<Record<string, IFunction>>;
  /** The dead-letter queue of the timers, the recurring jobs and the stream consumers. */
  deadLetterQueue: IQueue;
  tableName: string;
  /** The WebSocket API of /ws and its stage name. */
  webSocketApiId: string;
  webSocketStageName: string;
  /** The Scheduler groups holding the stack's schedules. */
  scheduleGroups: readonly string[];
  /** The HTTP API's access log (one JSON object per request, with its status). */
  apiAccessLogs: ILogGroup;
  /** Whether the HTTP API's detailed metrics are on (enableRouteMetrics), so the dashboard graphs them by route too. */
  detailedMetrics: boolean;
  /** The functions' one log group. */
  functionLogs: ILogGroup;
  /** The CloudFront distribution in front of everything. */
  distributionId: string;
  /** Where the alarms are mailed (context "alarmEmail"); none: subscribe to the topic yourself. */
  alarmEmail?: string;
  /**
   * What keeps failed runs for replay (infra/failed-runs.ts): the asynchronously invoked functions,
   * whose failed runs go to the dead-letter queue, and each stream consumer's event source mapping
   * id by consumer name, whose failed batches go to the failed-batch bucket.
   */
  failedRuns?: { asyncFunctions: readonly IFunction[]; streamMappings: Readonly<Record<string, string>> };
}

/**
 * What an operator watches: the alarms, the topic they notify, the metrics made from log lines, and
 * the dashboards (infra/dashboard.ts). Lambda errors and throttles are summed ten functions to an
 * alarm (CloudWatch's limit per math expression) rather than one alarm per function: some ninety
 * alarms each would take the stack past CloudFormation's 500 resources, and each alarm names the
 * functions it covers.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly key: Key;
  readonly api5xxAlarm: Alarm;
  readonly lambdaErrorAlarms: Alarm[] = [];
  readonly deadLetterAlarm: Alarm;
  readonly iteratorAgeAlarms: Alarm[] = [];
  /** Per stream consumer: a batch kept in the failed-batch bucket, and a batch dropped without being kept. */
  readonly failedBatchAlarms: Alarm[] = [];
  /** A failed run or batch that Lambda could not write to its destination: lost. */
  readonly lostFailureAlarms: Alarm[] = [];
  readonly lambdaThrottleAlarms: Alarm[] = [];
  readonly tableThrottleAlarm: Alarm;
  readonly rateLimitedAlarm: Alarm;
  /** A Stripe delivery refused for its signature: the first one pages. */
  readonly webhookSignatureAlarm: Alarm;
  /** Calls answered 409 (lost races), from the line functions/common/http.ts writes for each. */
  readonly conflictAnswers: MetricFilter;
  readonly conflictAlarm: Alarm;
  /** Per route area (the folders of functions/), the p99 duration of its slowest HTTP or socket function; an area of more than ten functions has several. */
  readonly latencyAlarms: Alarm[] = [];
  readonly webSocketServerErrorAlarm: Alarm;
  readonly webSocketClientErrorAlarm: Alarm;
  readonly schedulerFailureAlarm: Alarm;
  /**
   * CloudFront's 5xx rate. Its metrics exist only in us-east-1, and an alarm watches metrics of its
   * own region only: the alarm exists when the stack is in us-east-1 (a CloudFormation condition
   * when the region is only known at deploy), never elsewhere, where the dashboard still graphs it.
   */
  readonly cloudFront5xxAlarm?: Alarm;
  /** The log lines counted as metrics: requests answered 429, and the payment lines (functions/common/counted-logs.ts). */
  readonly rateLimitedRequests: MetricFilter;
  readonly paymentLogs: Readonly<Record<CountedLog, MetricFilter>>;
  readonly dashboards: OperationsDashboards;

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
    const alarm = (id: string, options: ConstructorParameters<typeof Alarm>[2], scope: Construct = this) => {
      const created = new Alarm(scope, id, options);
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
    const functionGroups: FunctionGroup[] = [
      ...[...props.routesByArea].map(([area, routes]) => ({
        title: `${area} routes`,
        functions: Object.fromEntries(
          routes.flatMap((route) => (props.routeFunctions[route.name] ? [[route.name, props.routeFunctions[route.name]!] as const] : [])),
        ),
      })),
      { title: 'timers', functions: props.timerFunctions },
      { title: '/ws', functions: props.socketFunctions },
      { title: 'table stream consumers', functions: props.streamConsumers },
      { title: 'recurring jobs', functions: props.recurringFunctions },
      ...(props.topicSubscribers && Object.keys(props.topicSubscribers).length ? [{ title: 'topic subscribers', functions: props.topicSubscribers }] : []),
    ];
    const functions = functionGroups.flatMap((g) => Object.values(g.functions));
    for (let start = 0, n = 1; start < functions.length; start += METRICS_PER_ALARM, n++) {
      const group = functions.slice(start, start + METRICS_PER_ALARM);
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
        `A timer or recurring job failed, or Scheduler could not deliver it, and its run waits in the dead-letter queue with its input (${stage}). ` +
        'README runbook: fix the cause, then npm run replay -- <DeadLetterQueueUrl>.',
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

    // ---- Failed runs kept for replay (infra/failed-runs.ts), and failures that could not be kept ---
    if (props.failedRuns) {
      const { asyncFunctions, streamMappings } = props.failedRuns;
      const whenAny = { threshold: 0, comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD, evaluationPeriods: 1, treatMissingData: TreatMissingData.NOT_BREACHING };
      Object.entries(streamMappings).forEach(([name, mappingId]) => {
        // The event source mapping's own counts (its metrics config turns them on).
        const mappingMetric = (metricName: string) =>
          new Metric({ namespace: 'AWS/Lambda', metricName, dimensionsMap: { EventSourceMappingUUID: mappingId }, statistic: 'Sum', period: Duration.minutes(5) });
        this.failedBatchAlarms.push(
          alarm(`FailedBatches-${name}`, {
            alarmDescription:
              `The table stream consumer ${name} gave up on a batch after its retries; the batch is kept whole in the failed-batch bucket (${stage}). ` +
              'README runbook: fix the cause, then npm run replay -- s3://<FailedBatchesBucketName>/aws/lambda/.',
            metric: mappingMetric('OnFailureDestinationDeliveredEventCount'),
            ...whenAny,
          }),
          alarm(`DroppedBatches-${name}`, {
            alarmDescription: `The table stream consumer ${name} dropped records without keeping them (the failed-batch bucket refused them, or they aged out) (${stage}). They cannot be replayed: look at its logs.`,
            metric: mappingMetric('DroppedEventCount'),
            ...whenAny,
          }),
        );
      });
      const keepers = [...asyncFunctions, ...Object.values(props.streamConsumers)];
      for (let start = 0, n = 1; start < keepers.length; start += METRICS_PER_ALARM, n++) {
        const group = keepers.slice(start, start + METRICS_PER_ALARM);
        const usingMetrics: Record<string, IMetric> = {};
        group.forEach((fn, i) => {
          usingMetrics[`f${i}`] = fn.metric('DestinationDeliveryFailures', { statistic: 'Sum', period: Duration.minutes(5) });
        });
        this.lostFailureAlarms.push(
          alarm(`LostFailures${n}`, {
            alarmDescription:
              `A failed run or batch could not be written to the dead-letter queue or the failed-batch bucket and is lost (${stage}), one of: ` +
              `${group.map((fn) => fn.functionName).join(', ')}. Look at the function's logs for what it was given.`,
            metric: new MathExpression({
              expression: `SUM([${Object.keys(usingMetrics).join(', ')}])`,
              usingMetrics,
              period: Duration.minutes(5),
              label: `Destination delivery failures, group ${n}`,
            }),
            ...whenAny,
          }),
        );
      }
    }

    const whenAnyIn5Minutes = {
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    };
    /** One alarm on the sum of up to ten metrics (CloudWatch's limit for a math expression). */
    const sumOf = (metrics: readonly IMetric[], label: string) => {
      const usingMetrics = Object.fromEntries(metrics.map((metric, i) => [`m${i}`, metric]));
      return new MathExpression({ expression: `SUM([${Object.keys(usingMetrics).join(', ')}])`, usingMetrics, period: Duration.minutes(5), label });
    };

    // ---- Lambda throttles: a function refused for want of concurrency (the account's, shared) -----
    for (let start = 0, n = 1; start < functions.length; start += METRICS_PER_ALARM, n++) {
      const group = functions.slice(start, start + METRICS_PER_ALARM);
      this.lambdaThrottleAlarms.push(
        alarm(`LambdaThrottles${n}`, {
          alarmDescription:
            `A function was throttled in the last 5 minutes (${stage}): the region's concurrency is used up (by this stack or another in the account). ` +
            `Callers got 429 or 503, timers are retried. One of: ${group.map((fn) => fn.functionName).join(', ')}.`,
          metric: sumOf(group.map((fn) => fn.metricThrottles({ statistic: 'Sum', period: Duration.minutes(5) })), `Throttles, functions group ${n}`),
          ...whenAnyIn5Minutes,
        }),
      );
    }

    // ---- DynamoDB throttling (the SDK retried these; some calls still ended in a 503) -------------
    this.tableThrottleAlarm = alarm('TableThrottles', {
      alarmDescription:
        `The table throttled requests in the last 5 minutes (${stage}): a hot partition key or a surge past what on-demand capacity had ready. ` +
        'The dashboard graphs which operation; functions answer 503 with Retry-After when the retries run out.',
      metric: sumOf(DYNAMODB_OPERATIONS.map((op) => tableOperationMetric(props.tableName, 'ThrottledRequests', op)), 'Throttled requests'),
      ...whenAnyIn5Minutes,
    });

    // ---- 429 storms: the access log's status, whoever refused (a function's limits or the stage) ---
    // The access log is JSON written by API Gateway, with the status as a string.
    this.rateLimitedRequests = new MetricFilter(this, 'RateLimitedRequests', {
      logGroup: props.apiAccessLogs,
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: logMetricsNamespace(stage),
      metricName: 'RateLimitedRequests',
      metricValue: '1',
    });
    this.rateLimitedAlarm = alarm('RateLimitedStorm', {
      alarmDescription:
        `More than ${RATE_LIMITED_PER_5_MINUTES} API requests were answered 429 in 5 minutes (${stage}): someone is hammering a login or a form, or a client retries in a loop. ` +
        'In ApiAccessLogs, `filter status = "429" | stats count(*) by ip, routeKey` finds who and where; context wafRateLimit stops a flood at the edge.',
      metric: this.rateLimitedRequests.metric({ statistic: 'Sum', period: Duration.minutes(5) }),
      threshold: RATE_LIMITED_PER_5_MINUTES,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    // ---- Payments, counted from the log lines of functions/common/counted-logs.ts ---------------------
    // Lambda prefixes each line with its time, request id and level, so the filters match the
    // exact phrase rather than a JSON field.
    const paymentLogs = {} as Record<CountedLog, MetricFilter>;
    const paymentMetrics = {} as Record<CountedLog, IMetric>;
    for (const key of Object.keys(countedLogs) as CountedLog[]) {
      paymentLogs[key] = new MetricFilter(this, `Log-${key}`, {
        logGroup: props.functionLogs,
        filterPattern: FilterPattern.literal(`"${countedLogs[key]}"`),
        metricNamespace: logMetricsNamespace(stage),
        metricName: key.charAt(0).toUpperCase() + key.slice(1),
        metricValue: '1',
      });
      paymentMetrics[key] = paymentLogs[key].metric({ statistic: 'Sum', period: Duration.minutes(5), label: countedLogs[key] });
    }
    this.paymentLogs = paymentLogs;

    // ---- Scheduler: a timer or recurring job Scheduler could not invoke, gave up on, or lost -------
    this.schedulerFailureAlarm = alarm('SchedulerFailures', {
      alarmDescription:
        `EventBridge Scheduler failed to invoke a target, gave up on one, or could not dead-letter it in the last 5 minutes (${stage}), ` +
        `in the schedule groups ${props.scheduleGroups.join(', ')}${props.scheduleGroups.includes('default') ? ' (the default group is shared by the whole account)' : ''}. ` +
        'The dashboard graphs which; a dead-lettered run waits in the dead-letter queue.',
      metric: sumOf(
        props.scheduleGroups.flatMap((group) => SCHEDULER_FAILURE_METRICS.map((name) => schedulerMetric(group, name))),
        'Scheduler failures',
      ),
      ...whenAnyIn5Minutes,
    });

    // ---- CloudFront 5xx rate, where the metric is ----------------------------------------------------
    const region = Stack.of(this).region;
    if (Token.isUnresolved(region) || region === CLOUDFRONT_METRICS_REGION) {
      this.cloudFront5xxAlarm = alarm('CloudFront5xxRate', {
        alarmDescription:
          `More than ${CLOUDFRONT_5XX_PERCENT}% of CloudFront's responses were 5xx in 5 minutes, with at least ${CLOUDFRONT_5XX_MIN_REQUESTS} requests (${stage}). ` +
          'Compare the HTTP API 5xx and the site bucket; CloudFront access logs are in the CloudFrontLogs bucket.',
        metric: new MathExpression({
          expression: `IF(requests >= ${CLOUDFRONT_5XX_MIN_REQUESTS}, rate, 0)`,
          usingMetrics: {
            rate: cloudFrontMetric(props.distributionId, '5xxErrorRate', 'Average'),
            requests: cloudFrontMetric(props.distributionId, 'Requests', 'Sum'),
          },
          period: Duration.minutes(5),
          label: 'CloudFront 5xx %',
        }),
        threshold: CLOUDFRONT_5XX_PERCENT,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      if (Token.isUnresolved(region)) {
        const inMetricsRegion = new CfnCondition(this, 'InCloudFrontMetricsRegion', {
          expression: Fn.conditionEquals(Aws.REGION, CLOUDFRONT_METRICS_REGION),
        });
        (this.cloudFront5xxAlarm.node.defaultChild as CfnAlarm).cfnOptions.condition = inMetricsRegion;
      }
    }

    // ---- Stripe deliveries refused for their signature: the first one pages ---------------------------
    this.webhookSignatureAlarm = alarm('WebhookSignatureRefused', {
      alarmDescription:
        `Stripe sent a webhook whose signature did not verify (${stage}): if it was Stripe, every payment it reports is being refused and Stripe retries for three days at most. ` +
        `In FunctionLogs, \`filter message = "${countedLogs.webhookSignatureRefused}" | stats count(*) by endpoint\` says which endpoint (platform or connect). ` +
        "Compare that endpoint's signing secret in the Stripe dashboard with the stage's Stripe secret (RUNBOOK: Rotate the Stripe keys); Stripe's dashboard lists the failed deliveries to resend. " +
        'A lone refusal with no failed delivery in Stripe is someone probing the endpoint.',
      metric: this.paymentLogs.webhookSignatureRefused.metric({ statistic: 'Sum', period: Duration.seconds(WEBHOOK_REFUSED_PERIOD_SECONDS) }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    // ---- Lost races: calls answered 409, as a share of the API's requests ----------------------------
    this.conflictAnswers = new MetricFilter(this, 'Log-conflictAnswered', {
      logGroup: props.functionLogs,
      filterPattern: FilterPattern.literal(`"${alarmedLogs.conflictAnswered}"`),
      metricNamespace: logMetricsNamespace(stage),
      metricName: 'ConflictAnswered',
      metricValue: '1',
    });
    this.conflictAlarm = alarm('ConflictRate', {
      alarmDescription:
        `More than ${CONFLICT_PERCENT}% of the HTTP API's requests were answered 409 in 5 minutes, with at least ${CONFLICT_MIN_REQUESTS} requests (${stage}): ` +
        'writes are losing races (a refused DynamoDB condition or a cancelled transaction) far more than contending people explain, e.g. a hot item, a client retrying a stale write, or a bug in a condition. ' +
        `In FunctionLogs, \`filter message = "${alarmedLogs.conflictAnswered}" | stats count(*) by route\` says where; the dashboard's DynamoDB graphs show whether the table is throttling too.`,
      metric: new MathExpression({
        expression: `IF(requests >= ${CONFLICT_MIN_REQUESTS}, 100 * conflicts / requests, 0)`,
        usingMetrics: { conflicts: this.conflictAnswers.metric({ statistic: 'Sum', period: Duration.minutes(5) }), requests: apiMetric('Count') },
        period: Duration.minutes(5),
        label: '409 %',
      }),
      threshold: CONFLICT_PERCENT,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    // ---- p99 latency per route area: the slowest of its HTTP and socket functions -------------------
    // Percentiles do not add up across functions, and an alarm cannot watch a SEARCH, so each alarm
    // takes the highest p99 of up to ten named functions of one area (functions/<area>/). Each alarm
    // sits in the stack of its functions (a route area's nested stack for HTTP routes): ten
    // functions named across stacks would cost the parent template some 5 KB an alarm, and the
    // parent is the template nearest CloudFormation's 1 MB limit (RUNBOOK: cfn-lint).
    const userFacing = { ...props.routeFunctions, ...props.socketFunctions };
    const scopes = new Map<Stack, Construct>([[Stack.of(this), this]]);
    const scopeOf = (fn: IFunction) => {
      const stack = Stack.of(fn);
      if (!scopes.has(stack)) scopes.set(stack, new Construct(stack, 'Monitoring'));
      return scopes.get(stack)!;
    };
    const latencyGroups = new Map<string, { area: string; scope: Construct; functions: IFunction[] }>();
    for (const [name, fn] of Object.entries(userFacing)) {
      // Every deployed function has its area; only a stack built from entries of its own (the
      // route-areas growth test) has functions without one.
      const area = functionAreas[name] ?? 'unlisted';
      const scope = scopeOf(fn);
      const key = `${area} ${scope.node.path}`;
      if (!latencyGroups.has(key)) latencyGroups.set(key, { area, scope, functions: [] });
      latencyGroups.get(key)!.functions.push(fn);
    }
    const stacksOfArea = (area: string) => [...latencyGroups.values()].filter((g) => g.area === area).length;
    for (const { area, scope, functions: fns } of [...latencyGroups.values()].sort((a, b) => a.area.localeCompare(b.area))) {
      const threshold = AREA_LATENCY_P99_MS[area] ?? DEFAULT_LATENCY_P99_MS;
      const chunks = Math.ceil(fns.length / METRICS_PER_ALARM);
      const where = stacksOfArea(area) > 1 ? `-${Stack.of(scope).node.id}` : '';
      for (let n = 0; n < chunks; n++) {
        const group = fns.slice(n * METRICS_PER_ALARM, (n + 1) * METRICS_PER_ALARM);
        const usingMetrics = Object.fromEntries(group.map((fn, i) => [`f${i}`, fn.metricDuration({ statistic: 'p99', period: Duration.minutes(5) })]));
        this.latencyAlarms.push(
          alarm(
            `Latency-${area}${where}${chunks === 1 ? '' : `-${n + 1}`}`,
            {
              alarmDescription:
                `A function of the ${area} area had a p99 duration over ${threshold} ms for ${LATENCY_PERIODS * 5} minutes (${stage}); the alarm's metrics name the functions it watches (ten at most). ` +
                'The functions dashboard graphs each one\'s p99; in FunctionLogs, `filter @type = "REPORT" | stats pct(@duration, 99) by @logStream` confirms it. ' +
                'Look at what it waits on: DynamoDB throttles (dashboard), Stripe or the geocoder timing out, or a recent release (RUNBOOK: Roll back).',
              metric: new MathExpression({
                expression: `MAX([${Object.keys(usingMetrics).join(', ')}])`,
                usingMetrics,
                period: Duration.minutes(5),
                label: `${area} p99 ms`,
              }),
              threshold,
              comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
              evaluationPeriods: LATENCY_PERIODS,
              datapointsToAlarm: LATENCY_PERIODS,
              treatMissingData: TreatMissingData.NOT_BREACHING,
            },
            scope,
          ),
        );
      }
    }

    // ---- /ws: failed frames, and connects and frames refused (the stage's throttle among them) ------
    const wsMetric = (metricName: string) => stageMetric(props.webSocketApiId, props.webSocketStageName, metricName, 'Sum', metricName);
    this.webSocketServerErrorAlarm = alarm('WebSocketServerErrors', {
      alarmDescription:
        `More than ${WEBSOCKET_SERVER_ERRORS_PER_5_MINUTES} /ws connects or frames failed in API Gateway or their function in 5 minutes (IntegrationError, ExecutionError) (${stage}): ` +
        'locations and room messages are being lost. Look at the LambdaErrors and LambdaThrottles alarms and the /ws functions on the functions dashboard.',
      metric: sumOf([wsMetric('IntegrationError'), wsMetric('ExecutionError')], '/ws integration and execution errors'),
      threshold: WEBSOCKET_SERVER_ERRORS_PER_5_MINUTES,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.webSocketClientErrorAlarm = alarm('WebSocketClientErrors', {
      alarmDescription:
        `More than ${WEBSOCKET_CLIENT_ERROR_PERCENT}% of /ws connects and frames were refused before reaching a function in 5 minutes, with at least ${WEBSOCKET_MIN_REQUESTS} (${stage}). ` +
        `Most often the stage's throttle (${webSocketThrottle.rateLimit}/s, burst ${webSocketThrottle.burstLimit}; RUNBOOK: The /ws throttle) or the account's: compare MessageCount with it. ` +
        'Otherwise refused connects (a bad origin or session): read the socket functions in FunctionLogs.',
      metric: new MathExpression({
        expression: `IF(connects + messages >= ${WEBSOCKET_MIN_REQUESTS}, 100 * refused / (connects + messages), 0)`,
        usingMetrics: { refused: wsMetric('ClientError'), connects: wsMetric('ConnectCount'), messages: wsMetric('MessageCount') },
        period: Duration.minutes(5),
        label: '/ws refused %',
      }),
      threshold: WEBSOCKET_CLIENT_ERROR_PERCENT,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    // ---- Dashboards (infra/dashboard.ts) ------------------------------------------------------------
    this.dashboards = new OperationsDashboards(this, 'Dashboards', {
      stage,
      httpApiId: props.httpApiId,
      httpStageName: props.httpStageName,
      routesByArea: props.routesByArea,
      accessLogGroupName: props.apiAccessLogs.logGroupName,
      detailedMetrics: props.detailedMetrics,
      functionGroups,
      tableName: props.tableName,
      webSocketApiId: props.webSocketApiId,
      webSocketStageName: props.webSocketStageName,
      scheduleGroups: props.scheduleGroups,
      deadLetterQueue: props.deadLetterQueue,
      distributionId: props.distributionId,
      rateLimited: this.rateLimitedRequests.metric({ statistic: 'Sum', period: Duration.minutes(5), label: 'Answered 429' }),
      payments: paymentMetrics,
      // The CloudFront alarm may not exist (see above): a dashboard naming it would fail to deploy.
      alarms: [
        ...this.node.findAll().filter((c): c is Alarm => c instanceof Alarm && c !== this.cloudFront5xxAlarm),
        ...this.latencyAlarms.filter((a) => Stack.of(a) !== Stack.of(this)),
      ],
    });
  }
}
