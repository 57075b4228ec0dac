import { Stack, type CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnApi, CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type { CfnDistribution } from 'aws-cdk-lib/aws-cloudfront';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnLogGroup } from 'aws-cdk-lib/aws-logs';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alarmedLogs, countedLogs } from '../functions/common/counted-logs';
import { logger } from '../functions/common/logger';
import { functionAreas } from '../shared/function-files';
import { deployedRoutes, routeKey, timers } from '../shared/routes';
import { DYNAMODB_OPERATIONS, METRICS_PER_DASHBOARD, METRICS_PER_GRAPH, SCHEDULER_FAILURE_METRICS } from './dashboard';
import { MarketplaceStack } from './marketplace-stack';
import {
  API_5XX_PERCENT,
  AREA_LATENCY_P99_MS,
  CLOUDFRONT_5XX_MIN_REQUESTS,
  CLOUDFRONT_5XX_PERCENT,
  CONFLICT_MIN_REQUESTS,
  CONFLICT_PERCENT,
  DEFAULT_LATENCY_P99_MS,
  ITERATOR_AGE_MS,
  LATENCY_PERIODS,
  METRICS_PER_ALARM,
  RATE_LIMITED_PER_5_MINUTES,
  WEBHOOK_REFUSED_PERIOD_SECONDS,
  WEBSOCKET_CLIENT_ERROR_PERCENT,
  WEBSOCKET_MIN_REQUESTS,
  WEBSOCKET_SERVER_ERRORS_PER_5_MINUTES,
} from './monitoring';
import { unacknowledgedNagFindings } from './nag';
import { routesByArea } from './route-areas';
import { testSynth } from './testing/synth';

type Resource = { Type: string; Properties: Record<string, any>; Condition?: string };

const { synth, cleanup } = testSynth();
// A synth takes up to a minute on a loaded two-core machine, and a hook here may run two.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 400_000 });
const SYNTHS_TIMEOUT = 400_000;

let prod: ReturnType<typeof synth>;
/** The same stack given a region other than CloudFront's (us-east-1) at synth. */
let elsewhere: ReturnType<typeof synth>;
beforeAll(() => {
  prod = synth();
  elsewhere = synth({ stage: 'euw', env: { account: '123456789012', region: 'eu-west-1' } });
}, SYNTHS_TIMEOUT);
afterAll(cleanup);

/** The stack as `cdk synth -c key=value` builds it. */
const synthWithContext = (context: Record<string, string>) => synth({}, context);

const resourcesOf = (template: Template, type: string) =>
  Object.entries(template.toJSON().Resources as Record<string, Resource>).filter(([, r]) => r.Type === type);
const alarmsNamed = (template: Template, name: string) => resourcesOf(template, 'AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith(`Monitoring${name}`));
const logicalId = (stack: MarketplaceStack, construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as CfnApi);

/** A graph's metric as the dashboard body has it: namespace, name, dimension pairs, then options. */
interface GraphMetric {
  namespace: string;
  name: string;
  dimensions: Record<string, string>;
  options: Record<string, unknown>;
}
interface Widget {
  type: string;
  title?: string;
  region?: string;
  /** A Logs Insights widget's query. */
  query?: string;
  metrics: GraphMetric[];
}

/**
 * A dashboard's widgets. The body is a Fn::Join of text and references; each reference becomes
 * "TOKEN(<its JSON, quotes made single>)" (they all sit inside JSON strings), so it parses.
 */
function widgetsOf(template: Template, dashboard: 'Service' | 'Functions'): Widget[] {
  const [, resource] = resourcesOf(template, 'AWS::CloudWatch::Dashboard').find(([id]) => id.startsWith(`MonitoringDashboards${dashboard}`))!;
  const parts = resource.Properties.DashboardBody['Fn::Join'][1] as unknown[];
  const body = JSON.parse(parts.map((p) => (typeof p === 'string' ? p : `TOKEN(${JSON.stringify(p).replace(/"/g, "'")})`)).join(''));
  return (body.widgets as { type: string; properties: Record<string, any> }[]).map((w) => ({
    type: w.type,
    title: w.properties.title,
    region: w.properties.region,
    query: w.properties.query,
    metrics: ((w.properties.metrics ?? []) as unknown[][]).map((m) => {
      const options = (typeof m[m.length - 1] === 'object' ? m[m.length - 1] : {}) as Record<string, unknown>;
      const names = m.filter((x) => typeof x === 'string') as string[];
      const dimensions: Record<string, string> = {};
      for (let i = 2; i + 1 < names.length; i += 2) dimensions[names[i]!] = names[i + 1]!;
      return { namespace: names[0]!, name: names[1]!, dimensions, options };
    }),
  }));
}
/** A metric filter of the stack by its metric's name. */
const metricFilterNamed = (metricName: string) =>
  resourcesOf(prod.template, 'AWS::Logs::MetricFilter').find(([, r]) => r.Properties.MetricTransformations[0].MetricName === metricName)![1];

/**
 * One line the functions' logger writes, as a Lambda on the Node runtime's default (text) log format
 * stores it: its time, request id and level, then the line. A JSON selector would not match that
 * event, which is why the filters look for exact phrases.
 */
function loggedAsLambdaStoresIt(write: () => void): string {
  const lines: string[] = [];
  const capture = (line: unknown) => void lines.push(String(line));
  const log = vi.spyOn(console, 'log').mockImplementation(capture);
  const error = vi.spyOn(console, 'error').mockImplementation(capture);
  try {
    write();
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
  expect(lines).toHaveLength(1);
  return `2026-01-01T00:00:00.000Z\t0f6d4c6e-1b2a-4c3d-9e8f-000000000001\tINFO\t${lines[0]}`;
}

/**
 * Whether a filter pattern of exact phrases (each in double quotes, all required) matches an event,
 * as CloudWatch Logs matches them. Any other kind of pattern fails the test rather than guess.
 */
function phrasePatternMatches(pattern: string, event: string): boolean {
  const phrases = [...pattern.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  expect(pattern.replace(/"[^"]*"/g, '').trim(), `only quoted phrases in ${pattern}`).toBe('');
  return phrases.length > 0 && phrases.every((phrase) => event.includes(phrase));
}

/** The timers' group, then the groups the stack's schedules name ('default' when none). */
const scheduleGroups = () => [
  ...new Set([
    'Marketplace-prod-timers',
    ...resourcesOf(prod.template, 'AWS::Scheduler::Schedule').map(([, s]) => (s.Properties.GroupName as string | undefined) ?? 'default'),
  ]),
];
const token = (ref: unknown) => `TOKEN(${JSON.stringify(ref).replace(/"/g, "'")})`;
const widgetTitled = (widgets: Widget[], title: string) => {
  const found = widgets.filter((w) => w.title === title || w.title?.startsWith(`${title} (`));
  expect(found.map((w) => w.title), `a widget titled "${title}"`).not.toEqual([]);
  return found.flatMap((w) => w.metrics);
};

/** The HTTP API's $default stage resource. */
const httpStageOf = ({ stack, template }: { stack: MarketplaceStack; template: Template }) =>
  resourcesOf(template, 'AWS::ApiGatewayV2::Stage').find(
    ([id]) => id === stack.getLogicalId(stack.node.findChild('HttpApi').node.findChild('DefaultStage').node.defaultChild as CfnStage),
  )![1];
/** Whether a dashboard metric is an HTTP API route metric (published only with detailed metrics on). */
const isRouteMetric = (m: GraphMetric) => m.namespace === 'AWS/ApiGateway' && ('Method' in m.dimensions || 'Resource' in m.dimensions);
const routeTableTitle = (area: string) => `Requests, 4xx, 5xx, 429 and latency p50/p99 (ms) by route: ${area}`;
/** The route keys a route table's query keeps (its `filter routeKey in [...]`). */
const routeKeysOf = (query: string) => JSON.parse(/filter routeKey in (\[[^\]]*\])/.exec(query)![1]!) as string[];

describe('Observability: the dashboards', () => {
  it('graphs the HTTP API overall from its free stage metrics', () => {
    // Prepare
    const widgets = widgetsOf(prod.template, 'Service');
    const apiId = token({ Ref: logicalId(prod.stack, prod.stack.api) });

    // Act
    const overall = [...widgetTitled(widgets, 'HTTP API requests'), ...widgetTitled(widgets, 'HTTP API 4xx and 5xx'), ...widgetTitled(widgets, 'HTTP API latency p50 and p99 (ms)')];

    // Assess
    expect(overall.map((m) => `${m.name} ${String(m.options.stat)}`)).toEqual(['Count Sum', '4xx Sum', '5xx Sum', 'Latency p50', 'Latency p99', 'IntegrationLatency p99']);
    for (const m of overall) expect(m.dimensions).toEqual({ ApiId: apiId, Stage: '$default' });
  });

  it("tables every route's requests, 4xx, 5xx, 429 and latency p50/p99 from the access log, one table per route area", () => {
    // Prepare
    const widgets = widgetsOf(prod.template, 'Service');
    const accessLogs = token({ Ref: prod.stack.getLogicalId(prod.stack.node.findChild('ApiAccessLogs').node.defaultChild as CfnLogGroup) });
    // The fields the query reads are the ones the access log writes.
    const format = JSON.parse(httpStageOf(prod).Properties.AccessLogSettings.Format) as Record<string, string>;

    for (const [area, routes] of routesByArea(deployedRoutes)) {
      // Act
      const tables = widgets.filter((w) => w.title === routeTableTitle(area) || w.title?.startsWith(`${routeTableTitle(area)} (`));

      // Assess
      expect(tables.length, area).toBeGreaterThan(0);
      for (const table of tables) {
        expect(table.type).toBe('log');
        expect(table.query!.startsWith(`SOURCE '${accessLogs}' | filter routeKey in [`), table.title).toBe(true);
        expect(table.query).toContain(
          '| stats count(*) as requests, sum(status >= 400 and status < 500) as errors4xx, sum(status >= 500) as errors5xx, ' +
            'sum(status = 429) as rateLimited429, pct(latency, 50) as p50, pct(latency, 99) as p99 by routeKey',
        );
        expect(table.query!.endsWith('| sort requests desc'), table.title).toBe(true);
        // Logs Insights refuses a query longer than 10,000 characters.
        expect(table.query!.length, table.title).toBeLessThanOrEqual(10_000);
      }
      expect(tables.flatMap((t) => routeKeysOf(t.query!)).sort(), area).toEqual(routes.map(routeKey).sort());
    }
    expect(format).toMatchObject({ routeKey: '$context.routeKey', status: '$context.status', latency: '$context.responseLatency' });
  });

  it("leaves the HTTP API's detailed metrics, and the graphs that would read them, off by default", () => {
    // Act
    const stage = httpStageOf(prod);
    const perRoute = Object.entries((stage.Properties.RouteSettings ?? {}) as Record<string, Record<string, unknown>>);
    const routeGraphs = [...widgetsOf(prod.template, 'Service'), ...widgetsOf(prod.template, 'Functions')].filter((w) => w.metrics.some(isRouteMetric));

    // Assess
    expect(prod.stack.detailedMetrics).toBe(false);
    expect(stage.Properties.DefaultRouteSettings).not.toHaveProperty('DetailedMetricsEnabled');
    expect(perRoute.length).toBeGreaterThan(0);
    for (const [key, settings] of perRoute) expect(settings, key).not.toHaveProperty('DetailedMetricsEnabled');
    expect(routeGraphs.map((w) => w.title)).toEqual([]);
  });

  it('graphs DynamoDB throttles, system and user errors, /ws connections, messages and errors, Scheduler failures and the dead-letter queue', () => {
    // Prepare
    const widgets = widgetsOf(prod.template, 'Service');
    const tableName = token({ Ref: resourcesOf(prod.template, 'AWS::DynamoDB::Table')[0]![0] });
    const ws = { ApiId: token({ Ref: logicalId(prod.stack, prod.stack.webSocketApi) }), Stage: 'prod' };

    // Act
    const throttled = widgetTitled(widgets, 'DynamoDB throttled requests');
    const systemErrors = widgetTitled(widgets, 'DynamoDB system errors');
    const userErrors = widgetTitled(widgets, 'DynamoDB user errors (whole account and region)');
    const socket = ['WebSocket connections', 'WebSocket messages', 'WebSocket errors'].flatMap((title) => widgetTitled(widgets, title));
    const scheduler = widgetTitled(widgets, 'Scheduler failures');
    const deadLetters = widgetTitled(widgets, 'Dead-letter queue');

    // Assess
    expect(throttled.map((m) => [m.name, m.dimensions])).toEqual(DYNAMODB_OPERATIONS.map((op) => ['ThrottledRequests', { Operation: op, TableName: tableName }]));
    expect(systemErrors.map((m) => m.dimensions.Operation)).toEqual([...DYNAMODB_OPERATIONS]);
    expect(userErrors).toEqual([expect.objectContaining({ namespace: 'AWS/DynamoDB', name: 'UserErrors', dimensions: {} })]);
    expect(socket.map((m) => m.name)).toEqual(['ConnectCount', 'MessageCount', 'ClientError', 'ExecutionError', 'IntegrationError']);
    for (const m of socket) expect(m.dimensions).toEqual(ws);
    // The timers' own group and the group(s) of the recurring schedules.
    const groups = [...new Set(scheduler.map((m) => m.dimensions.ScheduleGroup))];
    expect(groups).toEqual(scheduleGroups());
    for (const group of groups) {
      expect(scheduler.filter((m) => m.dimensions.ScheduleGroup === group).map((m) => m.name)).toEqual([...SCHEDULER_FAILURE_METRICS, 'InvocationThrottleCount']);
    }
    expect(deadLetters.map((m) => [m.namespace, m.name])).toEqual([
      ['AWS/SQS', 'ApproximateNumberOfMessagesVisible'],
      ['AWS/SQS', 'NumberOfMessagesSent'],
    ]);
  });

  it('graphs payments from the lines the webhook writes, and CloudFront from us-east-1 wherever the stack is', () => {
    for (const { template, stack } of [prod, elsewhere]) {
      // Prepare
      const widgets = widgetsOf(template, 'Service');

      // Act
      const payments = widgetTitled(widgets, "Payments (from the webhook's log lines)");
      const edge = widgetTitled(widgets, 'CloudFront requests and error rates (us-east-1)');

      // Assess
      expect(payments.map((m) => [m.namespace, m.name, m.options.label])).toEqual([
        [`Marketplace/${stack.node.id.replace('Marketplace-', '')}`, 'PaymentSucceeded', countedLogs.paymentSucceeded],
        [expect.any(String), 'PaymentFailed', countedLogs.paymentFailed],
        [expect.any(String), 'WebhookSignatureRefused', countedLogs.webhookSignatureRefused],
        [expect.any(String), 'PaymentForUnknownInvoice', countedLogs.paymentForUnknownInvoice],
      ]);
      expect(edge.map((m) => m.name)).toEqual(['Requests', '4xxErrorRate', '5xxErrorRate']);
      for (const m of edge) {
        expect(m.options.region).toBe('us-east-1');
        expect(m.dimensions).toEqual({ DistributionId: token({ Ref: stack.getLogicalId(stack.distribution.node.defaultChild as CfnDistribution) }), Region: 'Global' });
      }
    }
  });

  it("graphs every function's errors, throttles and duration p50/p99 on the functions dashboard, within CloudWatch's limits", () => {
    // Prepare
    const widgets = widgetsOf(prod.template, 'Functions');
    const functionId = (name: string) => {
      const fn = (prod.stack.functions[name] ?? prod.stack.timerFunctions[name])!;
      return token({ Ref: Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction) });
    };

    // Act
    const lambda = widgets.flatMap((w) => w.metrics).filter((m) => m.namespace === 'AWS/Lambda');

    // Assess
    for (const name of [...deployedRoutes.map((r) => r.name), ...timers.map((t) => t.name)]) {
      const ofFunction = lambda.filter((m) => m.dimensions.FunctionName === functionId(name));
      expect(ofFunction.map((m) => `${m.name} ${String(m.options.stat)}`).sort(), name).toEqual(['Duration p50', 'Duration p99', 'Errors Sum', 'Throttles Sum']);
    }
    expect(widgets.some((w) => w.title === 'Lambda duration p50 and p99: timers')).toBe(true);
    for (const w of [...widgets, ...widgetsOf(prod.template, 'Service')]) expect(w.metrics.length, w.title).toBeLessThanOrEqual(METRICS_PER_GRAPH);
    for (const count of Object.values(prod.stack.monitoring.dashboards.metricCounts)) expect(count).toBeLessThanOrEqual(METRICS_PER_DASHBOARD);
  });

  it('names each dashboard after its stack and region, since dashboards are global to the account', () => {
    // Act
    const names = resourcesOf(prod.template, 'AWS::CloudWatch::Dashboard').map(([, r]) => JSON.stringify(r.Properties.DashboardName));

    // Assess
    expect(names.sort()).toEqual([
      JSON.stringify({ 'Fn::Join': ['', ['Marketplace-prod-', { Ref: 'AWS::Region' }]] }),
      JSON.stringify({ 'Fn::Join': ['', ['Marketplace-prod-functions-', { Ref: 'AWS::Region' }]] }),
    ]);
  });
});

describe('Observability: detailed metrics (context "detailedMetrics")', () => {
  let detailed: ReturnType<typeof synthWithContext>;
  beforeAll(() => {
    detailed = synthWithContext({ detailedMetrics: 'true' });
  }, SYNTHS_TIMEOUT);

  it('turns on the HTTP API route metrics for the stage and for every route with settings of its own, which keep their limits', () => {
    // Act
    const stage = httpStageOf(detailed);
    const perRoute = Object.entries((stage.Properties.RouteSettings ?? {}) as Record<string, Record<string, unknown>>);
    const withoutMetrics = Object.fromEntries(perRoute.map(([key, { DetailedMetricsEnabled: _, ...rest }]) => [key, rest]));

    // Assess
    expect(detailed.stack.detailedMetrics).toBe(true);
    expect(stage.Properties.DefaultRouteSettings.DetailedMetricsEnabled).toBe(true);
    expect(perRoute.length).toBeGreaterThan(0);
    for (const [key, settings] of perRoute) expect(settings.DetailedMetricsEnabled, key).toBe(true);
    expect(withoutMetrics).toEqual(httpStageOf(prod).Properties.RouteSettings);
  });

  it('adds graphs of requests, 4xx/5xx and latency p50/p99 of every route, next to the route tables', () => {
    // Prepare
    const widgets = widgetsOf(detailed.template, 'Service');
    const apiId = token({ Ref: logicalId(detailed.stack, detailed.stack.api) });

    for (const [area, routes] of routesByArea(deployedRoutes)) {
      // Act
      const tables = widgets.filter((w) => w.title?.startsWith(routeTableTitle(area)));
      const requests = widgetTitled(widgets, `Requests by route: ${area}`);
      const errors = widgetTitled(widgets, `4xx and 5xx by route: ${area}`);
      const latency = widgetTitled(widgets, `Latency p50 and p99 by route: ${area}`);

      // Assess
      expect(tables.flatMap((t) => routeKeysOf(t.query!)).sort(), area).toEqual(routes.map(routeKey).sort());
      for (const route of routes) {
        // HTTP APIs publish route metrics under Method and Resource (the route's path).
        const ofRoute = (m: GraphMetric) =>
          isRouteMetric(m) && m.dimensions.Method === route.method && m.dimensions.Resource === route.path && m.dimensions.ApiId === apiId && m.dimensions.Stage === '$default';
        expect(requests.filter(ofRoute).map((m) => m.name), routeKey(route)).toEqual(['Count']);
        expect(errors.filter(ofRoute).map((m) => m.name), routeKey(route)).toEqual(['4xx', '5xx']);
        expect(latency.filter(ofRoute).map((m) => `${m.name} ${String(m.options.stat)}`), routeKey(route)).toEqual(['Latency p50', 'Latency p99']);
      }
    }
    for (const w of widgets) expect(w.metrics.length, w.title).toBeLessThanOrEqual(METRICS_PER_GRAPH);
    expect(detailed.stack.monitoring.dashboards.metricCounts.service).toBeLessThanOrEqual(METRICS_PER_DASHBOARD);
  });

  it('refuses a detailedMetrics setting that is not true or false', () => {
    // Act
    const build = () => synthWithContext({ detailedMetrics: 'yes' });

    // Assess
    expect(build).toThrow(/detailedMetrics must be true or false/);
  });
});

describe('Observability: the alarms', () => {
  const topic = () => ({ Ref: prod.stack.getLogicalId(prod.stack.monitoring.topic.node.defaultChild as CfnApi) });
  const metricsOf = (alarm: Resource) => (alarm.Properties.Metrics as any[]).filter((m) => m.MetricStat).map((m) => m.MetricStat.Metric);

  it('keeps the earlier alarms: API 5xx rate, Lambda errors, dead letters, stream iterator age', () => {
    expect(alarmsNamed(prod.template, 'Api5xxRate')[0]![1].Properties.Threshold).toBe(API_5XX_PERCENT);
    expect(alarmsNamed(prod.template, 'LambdaErrors').length).toBeGreaterThan(0);
    expect(alarmsNamed(prod.template, 'DeadLetters')).toHaveLength(1);
    expect(alarmsNamed(prod.template, 'IteratorAge')[0]![1].Properties.Threshold).toBe(ITERATOR_AGE_MS);
  });

  it('alarms on any throttle of any function, ten functions to an alarm, and on the same functions as the error alarms', () => {
    // Act
    const throttles = alarmsNamed(prod.template, 'LambdaThrottles').map(([, a]) => a);
    const errors = alarmsNamed(prod.template, 'LambdaErrors').map(([, a]) => a);
    const watched = (alarms: Resource[], metricName: string) =>
      alarms.flatMap((a) => metricsOf(a).map((m) => {
        expect(m.MetricName).toBe(metricName);
        return JSON.stringify(m.Dimensions);
      })).sort();

    // Assess
    expect(throttles).toHaveLength(errors.length);
    for (const alarm of throttles) {
      expect(metricsOf(alarm).length).toBeLessThanOrEqual(METRICS_PER_ALARM);
      expect(alarm.Properties).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', AlarmActions: [topic()], OKActions: [topic()] });
    }
    expect(watched(throttles, 'Throttles')).toEqual(watched(errors, 'Errors'));
  });

  it("alarms on any throttled request of the table's operations", () => {
    // Act
    const [[, alarm]] = alarmsNamed(prod.template, 'TableThrottles') as [[string, Resource]];

    // Assess
    expect(metricsOf(alarm).map((m) => [m.Namespace, m.MetricName, m.Dimensions.find((d: any) => d.Name === 'Operation').Value])).toEqual(
      DYNAMODB_OPERATIONS.map((op) => ['AWS/DynamoDB', 'ThrottledRequests', op]),
    );
    expect(alarm.Properties).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', AlarmActions: [topic()] });
  });

  it("alarms on a 429 storm, counted from the API access log's status rather than all 4xx", () => {
    // Prepare
    const accessLogs = prod.stack.getLogicalId(prod.stack.node.findChild('ApiAccessLogs').node.defaultChild as CfnLogGroup);

    // Act
    const [[, filter]] = resourcesOf(prod.template, 'AWS::Logs::MetricFilter').filter(([id]) => id.startsWith('MonitoringRateLimitedRequests')) as [[string, Resource]];
    const [[, alarm]] = alarmsNamed(prod.template, 'RateLimitedStorm') as [[string, Resource]];

    // Assess
    expect(filter.Properties).toMatchObject({
      FilterPattern: '{ $.status = "429" }',
      LogGroupName: { Ref: accessLogs },
      MetricTransformations: [{ MetricName: 'RateLimitedRequests', MetricNamespace: 'Marketplace/prod', MetricValue: '1' }],
    });
    expect(alarm.Properties).toMatchObject({
      Namespace: 'Marketplace/prod',
      MetricName: 'RateLimitedRequests',
      Statistic: 'Sum',
      Period: 300,
      Threshold: RATE_LIMITED_PER_5_MINUTES,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [topic()],
    });
  });

  it('counts the payment lines by their exact phrases in the functions\' log group', () => {
    // Prepare
    const functionLogs = prod.stack.getLogicalId(prod.stack.node.findChild('FunctionLogs').node.defaultChild as CfnLogGroup);

    // Act
    const filters = resourcesOf(prod.template, 'AWS::Logs::MetricFilter').filter(([, r]) => JSON.stringify(r.Properties.LogGroupName) === JSON.stringify({ Ref: functionLogs }));

    // Assess
    expect(filters.map(([, r]) => r.Properties.FilterPattern).sort()).toEqual(
      [...Object.values(countedLogs), ...Object.values(alarmedLogs)].map((phrase) => `"${phrase}"`).sort(),
    );
  });

  it('pages on the first Stripe delivery refused for its signature, counted minute by minute from the line the webhook writes', () => {
    // Prepare: the line as the webhook writes it, as Lambda stores it (its time, request id and level first).
    const refused = loggedAsLambdaStoresIt(() => logger.warn(countedLogs.webhookSignatureRefused, { endpoint: 'connect' }));
    const handled = loggedAsLambdaStoresIt(() => logger.info('Stripe event handled', { eventId: 'evt_1', type: 'checkout.session.completed', endpoint: 'platform' }));

    // Act
    const filter = metricFilterNamed('WebhookSignatureRefused');
    const [[, alarm]] = alarmsNamed(prod.template, 'WebhookSignatureRefused') as [[string, Resource]];

    // Assess
    expect(phrasePatternMatches(filter.Properties.FilterPattern, refused)).toBe(true);
    expect(phrasePatternMatches(filter.Properties.FilterPattern, handled)).toBe(false);
    expect(alarm.Properties).toMatchObject({
      Namespace: 'Marketplace/prod',
      MetricName: 'WebhookSignatureRefused',
      Statistic: 'Sum',
      Period: WEBHOOK_REFUSED_PERIOD_SECONDS,
      EvaluationPeriods: 1,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [topic()],
      OKActions: [topic()],
    });
    expect(WEBHOOK_REFUSED_PERIOD_SECONDS).toBeLessThanOrEqual(60);
  });

  it("alarms when more than 5% of the API's requests are answered 409, counted from the line each conflict answer writes", () => {
    // Prepare
    const conflict = loggedAsLambdaStoresIt(() => logger.warn(alarmedLogs.conflictAnswered, { route: 'accept-job', errorName: 'ConflictError' }));
    const unhandled = loggedAsLambdaStoresIt(() => logger.error('Unhandled error', { route: 'accept-job', errorName: 'Error' }));

    // Act
    const filter = metricFilterNamed('ConflictAnswered');
    const [[, alarm]] = alarmsNamed(prod.template, 'ConflictRate') as [[string, Resource]];

    // Assess
    expect(phrasePatternMatches(filter.Properties.FilterPattern, conflict)).toBe(true);
    expect(phrasePatternMatches(filter.Properties.FilterPattern, unhandled)).toBe(false);
    expect(alarm.Properties.Metrics.find((m: any) => m.Expression).Expression).toBe(`IF(requests >= ${CONFLICT_MIN_REQUESTS}, 100 * conflicts / requests, 0)`);
    expect(metricsOf(alarm).map((m) => [m.Namespace, m.MetricName])).toEqual([
      ['Marketplace/prod', 'ConflictAnswered'],
      ['AWS/ApiGateway', 'Count'],
    ]);
    expect(alarm.Properties).toMatchObject({ Threshold: CONFLICT_PERCENT, ComparisonOperator: 'GreaterThanThreshold', AlarmActions: [topic()], OKActions: [topic()] });
  });

  it("alarms per route area on the p99 duration of its slowest HTTP or socket function, every such function in one alarm of its own area", () => {
    // Prepare: each user-facing function's logical id, by its name.
    const userFacing = { ...prod.stack.functions, ...prod.stack.socketFunctions };
    const nameOf = new Map(Object.entries(userFacing).map(([name, fn]) => [Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnResource), name]));

    // Act
    const latency = alarmsNamed(prod.template, 'Latency');
    const watched = latency.flatMap(([id, alarm]) => {
      const area = /^MonitoringLatency([a-z]+)/.exec(id)![1]!;
      const names = metricsOf(alarm).map((m) => {
        expect(m.Namespace).toBe('AWS/Lambda');
        expect(m.MetricName).toBe('Duration');
        return nameOf.get(m.Dimensions[0].Value.Ref)!;
      });
      expect(names.length).toBeLessThanOrEqual(METRICS_PER_ALARM);
      expect(alarm.Properties.Metrics.filter((m: any) => m.MetricStat).every((m: any) => m.MetricStat.Stat === 'p99')).toBe(true);
      expect(alarm.Properties.Metrics.find((m: any) => m.Expression).Expression).toMatch(/^MAX\(\[/);
      expect(alarm.Properties).toMatchObject({
        Threshold: AREA_LATENCY_P99_MS[area] ?? DEFAULT_LATENCY_P99_MS,
        EvaluationPeriods: LATENCY_PERIODS,
        DatapointsToAlarm: LATENCY_PERIODS,
        ComparisonOperator: 'GreaterThanThreshold',
        AlarmActions: [topic()],
      });
      for (const name of names) expect(functionAreas[name], name).toBe(area);
      return names;
    });

    // Assess
    expect(watched.sort()).toEqual(Object.keys(userFacing).sort());
    expect(new Set(latency.map(([id]) => /^MonitoringLatency([a-z]+)/.exec(id)![1]))).toEqual(new Set(Object.keys(userFacing).map((name) => functionAreas[name])));
  });

  it('alarms on /ws frames that failed, and on a share of connects and frames refused before a function (the throttle among them)', () => {
    // Prepare
    const wsApi = { Ref: prod.stack.getLogicalId(prod.stack.webSocketApi.node.defaultChild as CfnApi) };

    // Act
    const [[, failed]] = alarmsNamed(prod.template, 'WebSocketServerErrors') as [[string, Resource]];
    const [[, refused]] = alarmsNamed(prod.template, 'WebSocketClientErrors') as [[string, Resource]];

    // Assess
    for (const alarm of [failed, refused]) {
      for (const metric of metricsOf(alarm)) {
        expect(metric.Namespace).toBe('AWS/ApiGateway');
        expect(metric.Dimensions).toEqual(expect.arrayContaining([{ Name: 'ApiId', Value: wsApi }, { Name: 'Stage', Value: 'prod' }]));
      }
      expect(alarm.Properties).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', AlarmActions: [topic()], OKActions: [topic()] });
    }
    expect(metricsOf(failed).map((m) => m.MetricName)).toEqual(['IntegrationError', 'ExecutionError']);
    expect(failed.Properties.Threshold).toBe(WEBSOCKET_SERVER_ERRORS_PER_5_MINUTES);
    expect(metricsOf(refused).map((m) => m.MetricName)).toEqual(['ClientError', 'ConnectCount', 'MessageCount']);
    expect(refused.Properties.Metrics.find((m: any) => m.Expression).Expression).toBe(
      `IF(connects + messages >= ${WEBSOCKET_MIN_REQUESTS}, 100 * refused / (connects + messages), 0)`,
    );
    expect(refused.Properties.Threshold).toBe(WEBSOCKET_CLIENT_ERROR_PERCENT);
  });

  it('alarms when Scheduler fails to invoke, gives up on, or cannot dead-letter a timer or recurring job', () => {
    // Act
    const [[, alarm]] = alarmsNamed(prod.template, 'SchedulerFailures') as [[string, Resource]];

    // Assess
    expect(metricsOf(alarm).map((m) => `${m.Dimensions[0].Value}: ${m.MetricName}`)).toEqual(
      scheduleGroups().flatMap((group) => SCHEDULER_FAILURE_METRICS.map((name) => `${group}: ${name}`)),
    );
    expect(alarm.Properties).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold', AlarmActions: [topic()] });
  });

  it("alarms on CloudFront's 5xx rate only where its metrics are: in us-east-1, by a condition when the region is known only at deploy", () => {
    // Act
    const [[, alarm]] = alarmsNamed(prod.template, 'CloudFront5xxRate') as [[string, Resource]];
    const conditions = prod.template.toJSON().Conditions as Record<string, unknown>;
    const serviceAlarms = widgetsOf(prod.template, 'Service').find((w) => w.type === 'alarm');

    // Assess
    expect(alarm.Properties.Metrics.find((m: any) => m.Expression).Expression).toBe(`IF(requests >= ${CLOUDFRONT_5XX_MIN_REQUESTS}, rate, 0)`);
    expect(metricsOf(alarm).map((m) => [m.Namespace, m.MetricName])).toEqual([
      ['AWS/CloudFront', '5xxErrorRate'],
      ['AWS/CloudFront', 'Requests'],
    ]);
    expect(alarm.Properties).toMatchObject({ Threshold: CLOUDFRONT_5XX_PERCENT, ComparisonOperator: 'GreaterThanThreshold', AlarmActions: [topic()] });
    expect(conditions[alarm.Condition!]).toEqual({ 'Fn::Equals': [{ Ref: 'AWS::Region' }, 'us-east-1'] });
    // An alarm that may not exist is left off the dashboard, which would otherwise fail to deploy.
    expect(serviceAlarms).toBeDefined();
    expect(JSON.stringify(widgetsOf(prod.template, 'Service'))).not.toContain('CloudFront5xxRate');
    expect(alarmsNamed(elsewhere.template, 'CloudFront5xxRate')).toEqual([]);
  });
});

describe('Observability: CloudFront access logs', () => {
  it('logs every viewer request to a bucket of its own with ACLs for CloudFront, itself logged, private and TLS-only', () => {
    // Prepare
    const resources = prod.template.toJSON().Resources as Record<string, Resource>;

    // Act
    const logging = resourcesOf(prod.template, 'AWS::CloudFront::Distribution')[0]![1].Properties.DistributionConfig.Logging;
    const bucketId = logging.Bucket['Fn::GetAtt'][0] as string;
    const bucket = resources[bucketId]!;
    const policy = resourcesOf(prod.template, 'AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties.Bucket) === JSON.stringify({ Ref: bucketId }));

    // Assess
    expect(logging).toEqual({ Bucket: { 'Fn::GetAtt': [bucketId, 'RegionalDomainName'] }, Prefix: 'cloudfront/' });
    expect(bucket.Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] });
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
    expect(bucket.Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: prod.stack.getLogicalId(prod.stack.accessLogsBucket.node.defaultChild as CfnBucket) },
      LogFilePrefix: 'cloudfront-logs/',
    });
    expect(JSON.stringify(policy?.[1].Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });
});

describe('Observability: cdk-nag', () => {
  it('leaves no AwsSolutions finding unacknowledged with the dashboards, alarms and CloudFront logs, in either region', () => {
    expect(unacknowledgedNagFindings(prod.stack)).toEqual([]);
    expect(unacknowledgedNagFindings(elsewhere.stack)).toEqual([]);
  });
});
