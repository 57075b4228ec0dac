import { Aws, Duration, Stack } from 'aws-cdk-lib';
import {
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  LogQueryVisualizationType,
  LogQueryWidget,
  Metric,
  PeriodOverride,
  TextWidget,
  type IAlarm,
  type IMetric,
  type IWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { countedLogs, type CountedLog } from '../functions/common/counted-logs';
import { routeKey, type RouteDef } from '../shared/routes';

/**
 * Resource types that the stack-wide tags (infra/app.ts) leave alone: CloudFormation's
 * AWS::CloudWatch::Dashboard takes Tags in some regions only, and us-east-1's refuses the template
 * (`npm run cfn-lint` finds it). The dashboards are named after their stack and region instead.
 */
export const UNTAGGED_RESOURCE_TYPES = ['AWS::CloudWatch::Dashboard'];

/**
 * CloudWatch takes at most 2,500 metrics on one dashboard; each graph here stays at 100 or fewer
 * (what GetMetricWidgetImage renders), so a long list of routes or functions is split over graphs.
 */
export const METRICS_PER_DASHBOARD = 2500;
export const METRICS_PER_GRAPH = 100;

/** The DynamoDB operations the functions call (Scan is refused by IAM), whose throttles and errors are graphed. */
export const DYNAMODB_OPERATIONS = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
] as const;

/** The namespace of the metrics the stack makes from log lines (metric filters). */
export const logMetricsNamespace = (stage: string) => `Marketplace/${stage}`;

const FIVE_MINUTES = Duration.minutes(5);

/**
 * Logs Insights takes a query of at most 10,000 characters; a route table's query stays under this,
 * which leaves room for the SOURCE clause naming the log group (a name is at most 512).
 */
export const ROUTE_QUERY_CHARS = 9000;

/**
 * The Logs Insights query of one route table, as query lines (the widget joins them with "|"):
 * requests, 4xx (429s included, as in API Gateway's own 4xx), 5xx, 429 and latency p50/p99 by
 * route, over the HTTP API's access log (infra/parts/http-api.ts, ApiAccessLogs). API Gateway
 * writes status and latency as JSON strings; Logs Insights compares and ranks them as numbers.
 */
export function routeTableQuery(routes: readonly Pick<RouteDef, 'method' | 'path'>[]): string[] {
  return [
    `filter routeKey in [${routes.map((r) => JSON.stringify(routeKey(r))).join(', ')}]`,
    'stats count(*) as requests, sum(status >= 400 and status < 500) as errors4xx, sum(status >= 500) as errors5xx, ' +
      'sum(status = 429) as rateLimited429, pct(latency, 50) as p50, pct(latency, 99) as p99 by routeKey',
    'sort requests desc',
  ];
}

/** A stage-level HTTP or WebSocket API metric (dimensions ApiId and Stage). */
export function apiMetric(apiId: string, stageName: string, metricName: string, statistic = 'Sum', label?: string): Metric {
  return new Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: { ApiId: apiId, Stage: stageName }, statistic, period: FIVE_MINUTES, label });
}

/**
 * A route-level HTTP API metric. HTTP APIs publish them only with detailed metrics on (context
 * "detailedMetrics", enableRouteMetrics), under the dimensions ApiId, Method, Resource (the
 * route's path) and Stage.
 */
export function routeMetric(apiId: string, stageName: string, route: Pick<RouteDef, 'method' | 'path'>, metricName: string, statistic: string): Metric {
  return new Metric({
    namespace: 'AWS/ApiGateway',
    metricName,
    dimensionsMap: { ApiId: apiId, Method: route.method, Resource: route.path, Stage: stageName },
    statistic,
    period: FIVE_MINUTES,
    label: `${routeKey(route)} ${statistic === 'Sum' ? metricName : statistic}`,
  });
}

/** A DynamoDB metric of one operation on the table. */
export function tableOperationMetric(tableName: string, metricName: string, operation: string): Metric {
  return new Metric({
    namespace: 'AWS/DynamoDB',
    metricName,
    dimensionsMap: { TableName: tableName, Operation: operation },
    statistic: 'Sum',
    period: FIVE_MINUTES,
    label: `${operation} ${metricName}`,
  });
}

/** An EventBridge Scheduler metric of one schedule group. */
export function schedulerMetric(scheduleGroup: string, metricName: string): Metric {
  return new Metric({
    namespace: 'AWS/Scheduler',
    metricName,
    dimensionsMap: { ScheduleGroup: scheduleGroup },
    statistic: 'Sum',
    period: FIVE_MINUTES,
    label: `${scheduleGroup}: ${metricName}`,
  });
}

/** What can go wrong between Scheduler and a target: a failed invoke, a run given up, a dead letter lost or kept. */
export const SCHEDULER_FAILURE_METRICS = [
  'TargetErrorCount',
  'InvocationDroppedCount',
  'InvocationsSentToDeadLetterCount',
  'InvocationsFailedToBeSentToDeadLetterCount',
] as const;

/**
 * A CloudFront metric of the distribution. CloudFront publishes to us-east-1 only, with the
 * dimension Region=Global, whatever region the stack is in; `region` says where to read it from
 * (a dashboard graph may read another region; an alarm may not, so an alarm's metric has none).
 */
export function cloudFrontMetric(distributionId: string, metricName: string, statistic: string, region?: string): Metric {
  return new Metric({
    namespace: 'AWS/CloudFront',
    metricName,
    dimensionsMap: { DistributionId: distributionId, Region: 'Global' },
    statistic,
    period: FIVE_MINUTES,
    ...(region ? { region } : {}),
  });
}

/** A named set of functions graphed together (a route area, the timers, ...). */
export interface FunctionGroup {
  title: string;
  functions: Readonly<Record<string, IFunction>>;
}

export interface OperationsDashboardsProps {
  stage: string;
  httpApiId: string;
  httpStageName: string;
  /** The HTTP routes by area (infra/route-areas.ts). */
  routesByArea: ReadonlyMap<string, readonly Pick<RouteDef, 'name' | 'method' | 'path'>[]>;
  /** The HTTP API's access log group (one JSON line per request), which the route tables query. */
  accessLogGroupName: string;
  /**
   * Whether the HTTP API publishes detailed (per-route) metrics (context "detailedMetrics"): the
   * route graphs are added to the route tables only then, since without them they would stay empty.
   */
  detailedMetrics: boolean;
  functionGroups: readonly FunctionGroup[];
  tableName: string;
  webSocketApiId: string;
  webSocketStageName: string;
  /** The Scheduler groups the stack's schedules are in (the timers' own group, and the recurring jobs'). */
  scheduleGroups: readonly string[];
  deadLetterQueue: IQueue;
  distributionId: string;
  /** Requests answered 429 (a metric filter on the HTTP API's access log). */
  rateLimited: IMetric;
  /** The payment log lines, counted (metric filters on the functions' log group). */
  payments: Readonly<Record<CountedLog, IMetric>>;
  /** The alarms whose state the overview shows (each must exist wherever the stack is deployed). */
  alarms: readonly IAlarm[];
}

/**
 * Two dashboards for the operator. "<stack>-<region>" is the service: requests, errors and latency
 * overall and by route, DynamoDB, /ws, Scheduler, dead letters, payments, the edge, and the alarms.
 * "<stack>-functions-<region>" is every function's errors, throttles and duration. They are two
 * because each function costs four metrics (and, with detailed metrics, each route five), and one
 * dashboard holds 2,500. Dashboards are global to the account, so the names carry the region.
 *
 * By route, the numbers come from Logs Insights queries over the access log, run (and paid for,
 * per GB scanned) only when someone opens the dashboard; the HTTP API's detailed metrics, billed as
 * custom metrics every hour a route is called, are graphed too only when they are turned on.
 */
export class OperationsDashboards extends Construct {
  readonly service: Dashboard;
  readonly functions: Dashboard;
  /** Metrics per dashboard, checked against CloudWatch's limit at synth. */
  readonly metricCounts = { service: 0, functions: 0 };

  constructor(scope: Construct, id: string, props: OperationsDashboardsProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    const { httpApiId: api, httpStageName: apiStage } = props;

    this.service = new Dashboard(this, 'Service', {
      dashboardName: `${stackName}-${Aws.REGION}`,
      defaultInterval: Duration.hours(3),
      periodOverride: PeriodOverride.AUTO,
    });
    this.functions = new Dashboard(this, 'Functions', {
      dashboardName: `${stackName}-functions-${Aws.REGION}`,
      defaultInterval: Duration.hours(3),
      periodOverride: PeriodOverride.AUTO,
    });

    /** Graphs of at most METRICS_PER_GRAPH metrics each, "title (2/3)" when one list needs several. */
    const graphs = (board: keyof OperationsDashboards['metricCounts'], title: string, metrics: IMetric[], width = 8): GraphWidget[] => {
      this.metricCounts[board] += metrics.length;
      const parts: IMetric[][] = [];
      for (let start = 0; start < metrics.length; start += METRICS_PER_GRAPH) parts.push(metrics.slice(start, start + METRICS_PER_GRAPH));
      return parts.map(
        (left, i) =>
          new GraphWidget({ title: parts.length > 1 ? `${title} (${i + 1}/${parts.length})` : title, left, width, height: 6, period: FIVE_MINUTES }),
      );
    };
    const service = (title: string, metrics: IMetric[], width?: number) => graphs('service', title, metrics, width);
    /** Route tables from the access log, as many as keep each query within ROUTE_QUERY_CHARS, "title (2/3)" when several. */
    const routeTables = (title: string, routes: readonly Pick<RouteDef, 'method' | 'path'>[]): LogQueryWidget[] => {
      const parts: Pick<RouteDef, 'method' | 'path'>[][] = [];
      for (const route of routes) {
        const last = parts[parts.length - 1];
        if (last && routeTableQuery([...last, route]).join('\n| ').length <= ROUTE_QUERY_CHARS) last.push(route);
        else parts.push([route]);
      }
      return parts.map(
        (part, i) =>
          new LogQueryWidget({
            title: parts.length > 1 ? `${title} (${i + 1}/${parts.length})` : title,
            logGroupNames: [props.accessLogGroupName],
            queryLines: routeTableQuery(part),
            view: LogQueryVisualizationType.TABLE,
            width: 24,
            // A row a route, and the header: tall enough to read an area at a glance (it scrolls past 18).
            height: Math.min(18, Math.max(6, Math.ceil(part.length * 0.75) + 2)),
          }),
      );
    };
    const text = (markdown: string) => new TextWidget({ markdown, width: 24, height: 1 });

    // ---- Overview -----------------------------------------------------------------------------
    const overview: IWidget[] = [
      text(`# Marketplace (${props.stage})`),
      ...service('HTTP API requests', [apiMetric(api, apiStage, 'Count', 'Sum', 'Requests')]),
      ...service('HTTP API 4xx and 5xx', [apiMetric(api, apiStage, '4xx', 'Sum', '4xx'), apiMetric(api, apiStage, '5xx', 'Sum', '5xx')]),
      ...service('HTTP API latency p50 and p99 (ms)', [
        apiMetric(api, apiStage, 'Latency', 'p50', 'Latency p50'),
        apiMetric(api, apiStage, 'Latency', 'p99', 'Latency p99'),
        apiMetric(api, apiStage, 'IntegrationLatency', 'p99', 'Integration latency p99'),
      ]),
      ...service('Requests answered 429 (rate limits)', [props.rateLimited], 12),
    ];
    if (props.alarms.length) overview.push(new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 12, height: 6 }));
    this.service.addWidgets(...overview);

    // ---- Each route area: requests, errors and latency by route ----------------------------------
    for (const [area, routes] of props.routesByArea) {
      this.service.addWidgets(
        text(`## ${area} routes`),
        ...routeTables(`Requests, 4xx, 5xx, 429 and latency p50/p99 (ms) by route: ${area}`, routes),
        ...(props.detailedMetrics
          ? [
              ...service(`Requests by route: ${area}`, routes.map((r) => routeMetric(api, apiStage, r, 'Count', 'Sum'))),
              ...service(`4xx and 5xx by route: ${area}`, routes.flatMap((r) => [routeMetric(api, apiStage, r, '4xx', 'Sum'), routeMetric(api, apiStage, r, '5xx', 'Sum')])),
              ...service(`Latency p50 and p99 by route: ${area}`, routes.flatMap((r) => [routeMetric(api, apiStage, r, 'Latency', 'p50'), routeMetric(api, apiStage, r, 'Latency', 'p99')])),
            ]
          : []),
      );
    }

    // ---- Data, realtime, timers, dead letters -------------------------------------------------------
    const ws = (metricName: string) => apiMetric(props.webSocketApiId, props.webSocketStageName, metricName, 'Sum', metricName);
    this.service.addWidgets(
      text('## Table, /ws, Scheduler, dead letters'),
      ...service('DynamoDB throttled requests', DYNAMODB_OPERATIONS.map((op) => tableOperationMetric(props.tableName, 'ThrottledRequests', op))),
      ...service('DynamoDB system errors', DYNAMODB_OPERATIONS.map((op) => tableOperationMetric(props.tableName, 'SystemErrors', op))),
      // DynamoDB publishes UserErrors (HTTP 400s: validation, access denied) for the account and region only.
      ...service('DynamoDB user errors (whole account and region)', [
        new Metric({ namespace: 'AWS/DynamoDB', metricName: 'UserErrors', statistic: 'Sum', period: FIVE_MINUTES, label: 'UserErrors' }),
      ]),
      ...service('WebSocket connections', [ws('ConnectCount')]),
      ...service('WebSocket messages', [ws('MessageCount')]),
      ...service('WebSocket errors', [ws('ClientError'), ws('ExecutionError'), ws('IntegrationError')]),
      ...service(
        'Scheduler failures',
        props.scheduleGroups.flatMap((group) => [...SCHEDULER_FAILURE_METRICS, 'InvocationThrottleCount'].map((name) => schedulerMetric(group, name))),
      ),
      ...service('Dead-letter queue', [
        props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: FIVE_MINUTES, label: 'Messages waiting' }),
        props.deadLetterQueue.metricNumberOfMessagesSent({ statistic: 'Sum', period: FIVE_MINUTES, label: 'Messages arrived' }),
      ]),
    );

    // ---- Payments and the edge ----------------------------------------------------------------------
    this.service.addWidgets(
      text('## Payments and CloudFront'),
      ...service(
        'Payments (from the webhook\'s log lines)',
        (Object.keys(countedLogs) as CountedLog[]).map((key) => props.payments[key]),
        12,
      ),
      // CloudFront's metrics exist in us-east-1 only; a graph may read another region, so this one
      // works whichever region the stack is in.
      ...service(
        'CloudFront requests and error rates (us-east-1)',
        [
          cloudFrontMetric(props.distributionId, 'Requests', 'Sum', 'us-east-1'),
          cloudFrontMetric(props.distributionId, '4xxErrorRate', 'Average', 'us-east-1'),
          cloudFrontMetric(props.distributionId, '5xxErrorRate', 'Average', 'us-east-1'),
        ],
        12,
      ),
    );

    // ---- Functions: errors, throttles and duration of each, group by group --------------------------
    for (const group of props.functionGroups) {
      const entries = Object.entries(group.functions);
      if (!entries.length) continue;
      this.functions.addWidgets(
        text(`## ${group.title}`),
        ...graphs('functions', `Lambda errors: ${group.title}`, entries.map(([name, fn]) => fn.metricErrors({ statistic: 'Sum', period: FIVE_MINUTES, label: name }))),
        ...graphs('functions', `Lambda throttles: ${group.title}`, entries.map(([name, fn]) => fn.metricThrottles({ statistic: 'Sum', period: FIVE_MINUTES, label: name }))),
        ...graphs(
          'functions',
          `Lambda duration p50 and p99: ${group.title}`,
          entries.flatMap(([name, fn]) => [
            fn.metricDuration({ statistic: 'p50', period: FIVE_MINUTES, label: `${name} p50` }),
            fn.metricDuration({ statistic: 'p99', period: FIVE_MINUTES, label: `${name} p99` }),
          ]),
        ),
      );
    }

    for (const [board, count] of Object.entries(this.metricCounts)) {
      if (count > METRICS_PER_DASHBOARD) {
        throw new Error(
          `the ${board} dashboard would hold ${count} metrics, more than the ${METRICS_PER_DASHBOARD} CloudWatch takes on one dashboard: ` +
            'split it in infra/dashboard.ts (a dashboard per route area, say)',
        );
      }
    }
  }
}
