import { Validations, type CfnResource } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import { Bucket, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { CfnTopic } from 'aws-cdk-lib/aws-sns';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_STREAM_READERS, recurring, routes as allRoutes, streamConsumers, type RouteDef } from '../../shared/routes';
import {
  contentSecurityPolicyFor,
  HSTS_MAX_AGE_SECONDS,
  permissionsPolicy,
  referrerPolicy,
  securityHeadersFor,
  strictTransportSecurity,
} from '../../shared/security-headers';
import { API_5XX_MIN_REQUESTS, API_5XX_PERCENT, ITERATOR_AGE_MS, METRICS_PER_ALARM } from '../monitoring';
import { nagAcknowledgments, unacknowledgedNagFindings } from '../nag';
import { defaultThrottle, throttleClasses, throttleFor } from '../throttling';
import { fileSynths, SYNTH_TIMEOUT } from '../testing/synth';
import {
  actionsOf,
  environmentOf,
  everyFunction,
  logicalIdOf,
  resourcesOf,
  routes,
  statementsOfRole,
  type Resource,
  type Statement,
} from '../testing/template-queries';

/**
 * The synthesized MarketplaceStack's guards: cdk-nag (infra/nag.ts), per-route throttling
 * (infra/throttling.ts on http-api.ts), dead letters (failed-work.ts), alarms (infra/monitoring.ts),
 * tracing, data protection in production (data-table.ts, access-logs.ts), the security headers and
 * the edge in front of the API (site.ts, edge-code.ts).
 */

const { synth, synthFromContext, devTraced } = fileSynths();

// Every test here synthesizes the whole stack at least once: on a loaded two-core machine that can
// take most of the default minute.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let prod: ReturnType<typeof synth>;

beforeAll(() => {
  prod = synth();
}, SYNTH_TIMEOUT);

/** A template value with its Fn::Join flattened and the pseudo parameters given concrete values. */
function concrete(value: unknown): string {
  const pseudo: Record<string, string> = { 'AWS::Region': 'eu-west-1', 'AWS::AccountId': '123456789012', 'AWS::URLSuffix': 'amazonaws.com' };
  if (typeof value === 'string') return value;
  const v = value as { 'Fn::Join'?: [string, unknown[]]; Ref?: string };
  if (v.Ref && pseudo[v.Ref]) return pseudo[v.Ref]!;
  if (v['Fn::Join']) return v['Fn::Join'][1].map(concrete).join(v['Fn::Join'][0]);
  throw new Error(`cannot make ${JSON.stringify(value)} concrete`);
}

/** Our own functions (nodejs22.x; aws-cdk-lib's handlers run other runtimes). */
const ourFunctions = (template: Template) =>
  Object.entries(resourcesOf(template, 'AWS::Lambda::Function')).filter(([, f]) => f.Properties.Runtime === 'nodejs22.x');

describe('MarketplaceStack: cdk-nag (AwsSolutions)', () => {
  it('leaves no AwsSolutions finding unacknowledged in the prod stack', () => {
    // Act
    const findings = unacknowledgedNagFindings(prod.stack);

    // Assess
    expect(findings).toEqual([]);
  });

  it('leaves none either on another stage with tracing on and an alarm address (X-Ray rights, auto-delete handlers)', () => {
    // Prepare
    const dev = devTraced();

    // Act
    const findings = unacknowledgedNagFindings(dev.stack);

    // Assess
    expect(findings).toEqual([]);
  }, SYNTH_TIMEOUT);

  it('acknowledges with a stated reason only, and every acknowledgment in infra/nag.ts is in use', () => {
    // Prepare
    const dev = devTraced();
    const acknowledged = [prod.stack, dev.stack].flatMap((stack) =>
      stack.node
        .findAll()
        .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
        .map((m) => JSON.stringify(m.data)),
    );

    // Act
    const unused = nagAcknowledgments.filter((a) => !acknowledged.some((text) => text.includes(JSON.stringify(a.reason).slice(1, -1))));

    // Assess
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const a of nagAcknowledgments) expect(a.reason.length, String(a.finding)).toBeGreaterThan(60);
    expect(unused.map((a) => String(a.finding))).toEqual([]);
  }, SYNTH_TIMEOUT);

  it('stops the synth, as infra/app.ts runs it, when a resource brings a finding nobody acknowledged', () => {
    // Prepare
    const { app, stack } = synthFromContext({});
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

    // Act
    const synthClean = () => app.synth();
    const synthCareless = () => {
      new Bucket(stack, 'CarelessBucket');
      app.synth({ force: true });
    };

    // Assess
    expect(synthClean).not.toThrow();
    expect(synthCareless).toThrow(/AwsSolutions[\s\S]*Marketplace-prod\/CarelessBucket/);
  }, SYNTH_TIMEOUT);
});

describe('MarketplaceStack: per-route throttling', () => {
  const httpStage = () =>
    Object.values(resourcesOf(prod.template, 'AWS::ApiGatewayV2::Stage')).find(
      (stage) => stage.Properties.ApiId.Ref === prod.stack.getLogicalId(prod.stack.api.node.defaultChild as CfnApi),
    ) as Resource & { DependsOn?: string[] };

  it('names only routes that exist in the manifest, each in one class', () => {
    // Prepare
    const names = new Set((allRoutes as readonly RouteDef[]).map((r) => r.name));

    // Act
    const named = Object.values(throttleClasses).flatMap((c) => [...c.routes]);

    // Assess
    expect(named.filter((name) => !names.has(name))).toEqual([]);
    expect(new Set(named).size).toBe(named.length);
  });

  it('gives the login, application, upload and booking routes their tighter limits on the $default stage, and the rest the default', () => {
    // Prepare
    const expected = Object.fromEntries(
      routes
        .filter((r) => throttleFor(r.name).throttleClass !== 'default')
        .map((r) => [
          `${r.method} ${r.path}`,
          // Limits only: detailed metrics stay off unless context "detailedMetrics" turns them on
          // (infra/observability.test.ts checks that they then join these settings).
          { ThrottlingRateLimit: throttleFor(r.name).limit.rateLimit, ThrottlingBurstLimit: throttleFor(r.name).limit.burstLimit },
        ]),
    );

    // Act
    const stage = httpStage();

    // Assess
    expect(stage.Properties.RouteSettings).toEqual(expected);
    expect(stage.Properties.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: defaultThrottle.rateLimit, ThrottlingBurstLimit: defaultThrottle.burstLimit });
    expect(expected['POST /api/admin/login']).toEqual({ ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 });
    expect(expected['POST /api/bookings']).toEqual({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 });
    for (const limit of Object.values(expected)) expect(limit.ThrottlingRateLimit).toBeLessThan(defaultThrottle.rateLimit);
  });

  it('creates the stage after the routes its settings name (a setting for a missing route fails the deployment)', () => {
    // Prepare: the nested stacks (route areas) that hold a route the stage has a setting for
    const throttled = new Set(Object.keys(httpStage().Properties.RouteSettings));
    const holders = [...prod.stack.routeStacks.values()]
      .filter((nested) => routes.some((r) => throttled.has(`${r.method} ${r.path}`) && nested.node.findAll().includes(prod.stack.functions[r.name]!)))
      .map((nested) => prod.stack.getLogicalId(nested.nestedStackResource as CfnResource));
    const stageEntry = Object.values(resourcesOf(prod.stackTemplate, 'AWS::ApiGatewayV2::Stage')).find(
      (stage) => stage.Properties.ApiId.Ref === prod.stack.getLogicalId(prod.stack.api.node.defaultChild as CfnApi),
    )!;

    // Act
    const dependsOn = stageEntry.DependsOn ?? [];

    // Assess
    expect(holders.length).toBeGreaterThan(0);
    expect(dependsOn).toEqual(expect.arrayContaining(holders));
  });

  it('writes a JSON access log line per request with its request id and route template, not its path', () => {
    // Act
    const settings = httpStage().Properties.AccessLogSettings;
    const format = JSON.parse(settings.Format) as Record<string, string>;

    // Assess
    expect(settings.DestinationArn).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^ApiAccessLogs/), 'Arn'] });
    expect(format).toMatchObject({ requestId: '$context.requestId', routeKey: '$context.routeKey', status: '$context.status' });
    expect(settings.Format).not.toContain('$context.path');
  });
});

describe('MarketplaceStack: dead letters', () => {
  const queueId = () => prod.stack.getLogicalId(prod.stack.deadLetterQueue.node.defaultChild as CfnQueue);
  const queueArn = () => ({ 'Fn::GetAtt': [queueId(), 'Arn'] });
  const sendsTo = (statements: Statement[]) =>
    statements.some((s) => [s.Action].flat().includes('sqs:SendMessage') && JSON.stringify(s.Resource) === JSON.stringify(queueArn()));

  it('keeps one SQS-encrypted queue for 14 days, reachable only over TLS', () => {
    // Act
    const queues = resourcesOf(prod.template, 'AWS::SQS::Queue');
    const policies = Object.values(resourcesOf(prod.template, 'AWS::SQS::QueuePolicy'));

    // Assess
    expect(Object.keys(queues)).toEqual([queueId()]);
    expect(queues[queueId()]!.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    expect(policies).toHaveLength(1);
    expect(JSON.stringify(policies[0]!.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it('lets the timers\' Scheduler role send to it, and tells every scheduling function its ARN for DeadLetterConfig', () => {
    // Prepare
    const schedulerRoleId = prod.stack.getLogicalId(prod.stack.schedulerRole.node.defaultChild as CfnRole);

    // Act
    const scheduling = everyFunction(prod.stack).filter((f) => f.scheduler);

    // Assess
    expect(sendsTo(statementsOfRole(prod.template, schedulerRoleId))).toBe(true);
    expect(scheduling.length).toBeGreaterThan(0);
    for (const { name, fn } of scheduling) expect(environmentOf(prod.stack, prod.template, fn).SCHEDULER_DEAD_LETTER_ARN, name).toEqual(queueArn());
  });

  it('gives every recurring schedule the queue as its dead-letter target, and its role the right to send there', () => {
    // Act
    const schedules = Object.values(resourcesOf(prod.template, 'AWS::Scheduler::Schedule'));

    // Assess
    expect(schedules).toHaveLength(recurring.length);
    for (const schedule of schedules) {
      expect(schedule.Properties.Target.DeadLetterConfig).toEqual({ Arn: queueArn() });
      expect(sendsTo(statementsOfRole(prod.template, schedule.Properties.Target.RoleArn['Fn::GetAtt'][0]))).toBe(true);
    }
  });

  it('reads the table stream with at most two event source mappings, the most DynamoDB Streams serves a shard without throttling', () => {
    // Act
    const mappings = Object.values(resourcesOf(prod.template, 'AWS::Lambda::EventSourceMapping'));

    // Assess
    expect(mappings.length).toBeGreaterThan(0);
    expect(mappings.length).toBeLessThanOrEqual(MAX_STREAM_READERS);
    expect(MAX_STREAM_READERS).toBe(2);
  });

  it("keeps a stream batch that still fails after its retries whole in the failed-batch bucket, not the queue (infra/deploy-safety.test.ts)", () => {
    // Prepare
    const bucketId = prod.stack.getLogicalId(prod.stack.failedRuns.batchesBucket.node.defaultChild as CfnBucket);

    // Act
    const mappings = Object.values(resourcesOf(prod.template, 'AWS::Lambda::EventSourceMapping'));

    // Assess
    expect(mappings).toHaveLength(streamConsumers.length);
    for (const mapping of mappings) expect(mapping.Properties.DestinationConfig).toEqual({ OnFailure: { Destination: { 'Fn::GetAtt': [bucketId, 'Arn'] } } });
  });
});

describe('MarketplaceStack: alarms', () => {
  type AlarmResource = Resource & { Properties: { Metrics?: any[]; AlarmActions: unknown[]; OKActions: unknown[] } };
  const alarms = (template: Template) => resourcesOf(template, 'AWS::CloudWatch::Alarm') as Record<string, AlarmResource>;
  const topicId = () => prod.stack.getLogicalId(prod.stack.monitoring.topic.node.defaultChild as CfnTopic);
  const byPrefix = (prefix: string) => Object.entries(alarms(prod.template)).filter(([id]) => id.startsWith(`Monitoring${prefix}`)).map(([, a]) => a);

  it('notifies an encrypted, TLS-only topic of every alarm and its recovery, with a rotated key CloudWatch may use', () => {
    // Act
    const topic = resourcesOf(prod.template, 'AWS::SNS::Topic')[topicId()]!;
    const keyId = topic.Properties.KmsMasterKeyId['Fn::GetAtt'][0] as string;
    const key = resourcesOf(prod.template, 'AWS::KMS::Key')[keyId]!;
    const topicPolicies = Object.values(resourcesOf(prod.template, 'AWS::SNS::TopicPolicy'));

    // Assess
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(JSON.stringify(key.Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
    expect(topicPolicies.some((p) => JSON.stringify(p.Properties.PolicyDocument).includes('"aws:SecureTransport":"false"'))).toBe(true);
    expect(Object.keys(alarms(prod.template)).length).toBeGreaterThan(3);
    for (const alarm of Object.values(alarms(prod.template))) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId() }]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId() }]);
    }
  });

  it('subscribes the alarmEmail address when one is given, and nobody otherwise', () => {
    // Prepare
    const withEmail = devTraced();

    // Act
    const none = resourcesOf(prod.template, 'AWS::SNS::Subscription');
    const subscriptions = Object.values(resourcesOf(withEmail.template, 'AWS::SNS::Subscription'));

    // Assess
    expect(Object.keys(none)).toEqual([]);
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]!.Properties).toMatchObject({ Protocol: 'email', Endpoint: 'ops@example.com' });
    expect(() => synth({ stage: 'dev', alarmEmail: 'not an address' })).toThrow(/alarmEmail must be an email address/);
  }, SYNTH_TIMEOUT);

  it("alarms when more than 5% of the HTTP API's requests answer 5xx, once there are enough to judge", () => {
    // Act
    const [alarm] = byPrefix('Api5xxRate');
    const metrics = alarm!.Properties.Metrics!;
    const expression = metrics.find((m) => m.Expression)!.Expression as string;
    const apiMetrics = metrics.filter((m) => m.MetricStat).map((m) => m.MetricStat.Metric);

    // Assess
    expect(alarm!.Properties).toMatchObject({ Threshold: API_5XX_PERCENT, ComparisonOperator: 'GreaterThanThreshold', TreatMissingData: 'notBreaching' });
    expect(expression).toBe(`IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * errors / requests, 0)`);
    expect(apiMetrics.map((m) => m.MetricName).sort()).toEqual(['5xx', 'Count']);
    for (const metric of apiMetrics) {
      expect(metric.Namespace).toBe('AWS/ApiGateway');
      expect(metric.Dimensions).toEqual(
        expect.arrayContaining([
          { Name: 'ApiId', Value: { Ref: prod.stack.getLogicalId(prod.stack.api.node.defaultChild as CfnApi) } },
          { Name: 'Stage', Value: '$default' },
        ]),
      );
    }
  });

  it('alarms on any Lambda error of every function, ten functions to an alarm', () => {
    // Prepare
    const ours = ourFunctions(prod.template).map(([id]) => id).sort();

    // Act
    const errorAlarms = byPrefix('LambdaErrors');
    const watched = errorAlarms.flatMap((a) =>
      a.Properties.Metrics!.filter((m) => m.MetricStat).map((m) => {
        expect(m.MetricStat.Metric.MetricName).toBe('Errors');
        return m.MetricStat.Metric.Dimensions[0].Value.Ref as string;
      }),
    );

    // Assess
    expect(errorAlarms).toHaveLength(Math.ceil(ours.length / METRICS_PER_ALARM));
    for (const alarm of errorAlarms) {
      expect(alarm.Properties.Metrics!.filter((m) => m.MetricStat).length).toBeLessThanOrEqual(METRICS_PER_ALARM);
      expect(alarm.Properties).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    }
    expect([...watched].sort()).toEqual(ours);
  });

  it('alarms as soon as one message waits in the dead-letter queue', () => {
    // Act
    const [alarm] = byPrefix('DeadLetters');

    // Assess
    expect(alarm!.Properties).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [prod.stack.getLogicalId(prod.stack.deadLetterQueue.node.defaultChild as CfnQueue), 'QueueName'] } }],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it("alarms when a stream consumer falls more than 5 minutes behind the table's stream", () => {
    // Act
    const ageAlarms = byPrefix('IteratorAge');

    // Assess
    expect(ageAlarms).toHaveLength(streamConsumers.length);
    for (const consumer of streamConsumers) {
      const fnId = logicalIdOf(prod.stack, prod.stack.streamFunctions[consumer.name]!);
      expect(ageAlarms.some((a) => a.Properties.MetricName === 'IteratorAge' && JSON.stringify(a.Properties.Dimensions).includes(fnId))).toBe(true);
    }
    for (const alarm of ageAlarms) expect(alarm.Properties.Threshold).toBe(ITERATOR_AGE_MS);
  });
});

describe('MarketplaceStack: tracing', () => {
  it('leaves X-Ray off by default', () => {
    // Act
    const traced = ourFunctions(prod.template).filter(([, f]) => f.Properties.TracingConfig);

    // Assess
    expect(prod.stack.tracing).toBe(false);
    expect(traced).toEqual([]);
  });

  it('turns on active tracing for every function, with the right to send traces, when context "tracing" is true', () => {
    // Prepare
    const { stack } = synthFromContext({ tracing: 'true' });
    const template = Template.fromStack(stack);

    // Act
    const fns = ourFunctions(template);
    const roleIds = new Set(fns.map(([, f]) => f.Properties.Role['Fn::GetAtt'][0] as string));

    // Assess
    expect(stack.tracing).toBe(true);
    for (const [id, fn] of fns) expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
    for (const roleId of roleIds) expect(actionsOf(statementsOfRole(template, roleId), 'xray')).toContain('xray:PutTraceSegments');
  }, SYNTH_TIMEOUT);

  it('refuses a tracing setting that is not true or false', () => {
    // Act
    const build = () => synthFromContext({ tracing: 'yes' });

    // Assess
    expect(build).toThrow(/tracing must be true or false/);
  });
});

describe('MarketplaceStack: data protection in production', () => {
  it('retains and deletion-protects the table in prod, with point-in-time recovery, and lets other stages go', () => {
    // Prepare
    const dev = devTraced();

    // Act
    const [prodTable] = Object.values(resourcesOf(prod.template, 'AWS::DynamoDB::Table')) as (Resource & { UpdateReplacePolicy?: string })[];
    const [devTable] = Object.values(resourcesOf(dev.template, 'AWS::DynamoDB::Table')) as (Resource & { UpdateReplacePolicy?: string })[];

    // Assess
    expect(prodTable).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(prodTable!.Properties).toMatchObject({ DeletionProtectionEnabled: true, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } });
    expect(devTable!.Properties.DeletionProtectionEnabled).toBe(false);
    expect(devTable!.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  }, SYNTH_TIMEOUT);

  it('retains every bucket in prod and empties none of them on delete', () => {
    // Prepare
    const dev = devTraced();

    // Act
    const prodBuckets = Object.values(resourcesOf(prod.template, 'AWS::S3::Bucket')) as (Resource & { UpdateReplacePolicy?: string })[];
    const autoDelete = Object.keys(resourcesOf(prod.template, 'Custom::S3AutoDeleteObjects'));
    const devBuckets = Object.values(resourcesOf(dev.template, 'AWS::S3::Bucket'));

    // Assess
    expect(prodBuckets).toHaveLength(5);
    for (const bucket of prodBuckets) expect(bucket).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
    expect(autoDelete).toEqual([]);
    for (const bucket of devBuckets) expect(bucket.DeletionPolicy).toBe('Delete');
  }, SYNTH_TIMEOUT);

  it('logs every request to the site and uploads buckets to the access log bucket, which keeps them a year', () => {
    // Prepare
    const logsId = prod.stack.getLogicalId(prod.stack.accessLogsBucket.node.defaultChild as CfnBucket);

    // Act
    const buckets = resourcesOf(prod.template, 'AWS::S3::Bucket');
    const logged = Object.entries(buckets).filter(([id]) => id !== logsId).map(([, b]) => b.Properties.LoggingConfiguration);

    // Assess
    expect(logged.map((l) => l?.LogFilePrefix).sort()).toEqual(['cloudfront-logs/', 'failed-batches/', 'site/', 'uploads/']);
    for (const config of logged) expect(config.DestinationBucketName).toEqual({ Ref: logsId });
    expect(buckets[logsId]!.Properties.LifecycleConfiguration.Rules).toEqual([expect.objectContaining({ ExpirationInDays: 365, Status: 'Enabled' })]);
  });
});

describe('MarketplaceStack: security headers (shared/security-headers.ts)', () => {
  const policy = () => Object.values(resourcesOf(prod.template, 'AWS::CloudFront::ResponseHeadersPolicy'))[0]!.Properties.ResponseHeadersPolicyConfig;
  const uploads = 'marketplace-uploads-prod-123456789012-eu-west-1';

  it("sends the shared Content-Security-Policy, allowing this stack's uploads bucket and nothing wider", () => {
    // Prepare
    const expected = contentSecurityPolicyFor({ uploadOrigins: [`https://${uploads}.s3.eu-west-1.amazonaws.com`, `https://${uploads}.s3.amazonaws.com`] });

    // Act
    const csp = policy().SecurityHeadersConfig.ContentSecurityPolicy;

    // Assess
    expect(csp.Override).toBe(true);
    expect(concrete(csp.ContentSecurityPolicy)).toBe(expected);
    expect(expected).toContain("frame-ancestors 'none'");
    expect(expected).not.toContain("'unsafe-inline'");
    expect(expected).not.toContain('https://*.amazonaws.com');
  });

  it('sends exactly the shared headers with their shared values: HSTS, nosniff, frame DENY, Referrer-Policy, Permissions-Policy', () => {
    // Prepare
    const shared = securityHeadersFor();

    // Act
    const { SecurityHeadersConfig: security, CustomHeadersConfig: custom } = policy();
    const sent: Record<string, string> = {
      'content-security-policy': 'set',
      'strict-transport-security': `max-age=${security.StrictTransportSecurity.AccessControlMaxAgeSec}${security.StrictTransportSecurity.IncludeSubdomains ? '; includeSubDomains' : ''}${security.StrictTransportSecurity.Preload ? '; preload' : ''}`,
      'x-content-type-options': security.ContentTypeOptions.Override ? 'nosniff' : '',
      'referrer-policy': security.ReferrerPolicy.ReferrerPolicy,
      'x-frame-options': security.FrameOptions.FrameOption,
      ...Object.fromEntries(custom.Items.map((h: { Header: string; Value: string }) => [h.Header.toLowerCase(), h.Value])),
    };

    // Assess
    expect(Object.keys(sent).sort()).toEqual(Object.keys(shared).sort());
    expect(sent['strict-transport-security']).toBe(strictTransportSecurity);
    expect(security.StrictTransportSecurity.AccessControlMaxAgeSec).toBe(HSTS_MAX_AGE_SECONDS);
    expect(sent['referrer-policy']).toBe(referrerPolicy);
    expect(sent['x-frame-options']).toBe(shared['x-frame-options']);
    expect(sent['permissions-policy']).toBe(permissionsPolicy);
    expect(security.XSSProtection).toBeUndefined();
    for (const header of [security.StrictTransportSecurity, security.ContentTypeOptions, security.ReferrerPolicy, security.FrameOptions, ...custom.Items]) {
      expect(header.Override).toBe(true);
    }
  });

  it('puts the policy on the site and on /api/* responses', () => {
    // Act
    const config = Object.values(resourcesOf(prod.template, 'AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
    const policyId = Object.keys(resourcesOf(prod.template, 'AWS::CloudFront::ResponseHeadersPolicy'))[0];

    // Assess
    expect(config.DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    expect(config.CacheBehaviors.find((b: any) => b.PathPattern === '/api/*').ResponseHeadersPolicyId).toEqual({ Ref: policyId });
  });
});

describe('MarketplaceStack: the edge in front of the API', () => {
  it('tells the API the host the visitor asked for, replacing whatever the client sent as X-Forwarded-Host', () => {
    // Prepare
    const config = Object.values(resourcesOf(prod.template, 'AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
    const functions = resourcesOf(prod.template, 'AWS::CloudFront::Function');
    const codeOf = (behavior: any) => {
      const arn = JSON.stringify(behavior.FunctionAssociations?.[0]?.FunctionARN ?? '');
      const id = Object.keys(functions).find((logicalId) => arn.includes(logicalId));
      return id ? (functions[id]!.Properties.FunctionCode as string) : '';
    };
    const run = (code: string) => (new Function(`${code}; return handler;`)() as (e: unknown) => { headers: Record<string, { value: string }> })({
      request: { uri: '/api/x', headers: { host: { value: 'fixly.example' }, 'x-forwarded-host': { value: 'evil.example' } } },
    });

    // Act
    const behaviors = config.CacheBehaviors.filter((b: any) => b.PathPattern === '/api/*' || b.PathPattern === '/ws');

    // Assess
    expect(behaviors).toHaveLength(2);
    for (const behavior of behaviors) expect(run(codeOf(behavior)).headers['x-forwarded-host']).toEqual({ value: 'fixly.example' });
  });

  it('has no WAF unless the operator turns it on', () => {
    expect(Object.keys(resourcesOf(prod.template, 'AWS::WAFv2::WebACL'))).toEqual([]);
    const config = Object.values(resourcesOf(prod.template, 'AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
    expect(config.WebACLId).toBeUndefined();
  });

  it('with wafRateLimit puts a CloudFront web ACL in front that answers 429 past that many API writes per address in 5 minutes, and asserts us-east-1', () => {
    // Act
    const { template } = synth({ stage: 'waf', wafRateLimit: 300 });

    // Assess
    const acls = Object.entries(resourcesOf(template, 'AWS::WAFv2::WebACL'));
    expect(acls).toHaveLength(1);
    const [aclId, acl] = acls[0]!;
    expect(acl.Properties.Scope).toBe('CLOUDFRONT');
    const writes = acl.Properties.Rules.find((r: any) => r.Name === 'api-writes-per-address');
    expect(writes.Statement.RateBasedStatement).toMatchObject({ Limit: 300, AggregateKeyType: 'IP' });
    expect(JSON.stringify(writes.Statement.RateBasedStatement.ScopeDownStatement)).toContain('/api/');
    expect(writes.Action.Block.CustomResponse.ResponseCode).toBe(429);
    const config = Object.values(resourcesOf(template, 'AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
    expect(config.WebACLId).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
    expect(JSON.stringify(template.toJSON().Rules ?? {})).toContain('us-east-1');
  }, SYNTH_TIMEOUT);

  it('refuses a wafRateLimit WAF would not take', () => {
    expect(() => synth({ stage: 'waf-bad', wafRateLimit: 5 })).toThrow(/wafRateLimit must be a whole number of requests per 5 minutes, at least 10/);
  }, SYNTH_TIMEOUT);
});
