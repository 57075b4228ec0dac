import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack, Validations, type CfnResource } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { CfnApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Bucket, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { CfnTopic } from 'aws-cdk-lib/aws-sns';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogItems } from '../functions/catalog/data/items';
import { deployedRoutes, recurring, routeKey, routes as allRoutes, socketRoutes, streamConsumers, timers, type RouteDef } from '../shared/routes';
import {
  contentSecurityPolicyFor,
  HSTS_MAX_AGE_SECONDS,
  permissionsPolicy,
  referrerPolicy,
  securityHeadersFor,
  strictTransportSecurity,
} from '../shared/security-headers';
import { table as tableDef } from '../shared/table';
import { retentionPeriods } from '../shared/document-categories';
import { MarketplaceStack } from './marketplace-stack';
import { prerenderedPages } from '../web/src/app/prerendered-pages';
import { API_5XX_MIN_REQUESTS, API_5XX_PERCENT, ITERATOR_AGE_MS, METRICS_PER_ALARM } from './monitoring';
import { nagAcknowledgments, unacknowledgedNagFindings } from './nag';
import { defaultThrottle, throttleClasses, throttleFor } from './throttling';
import { testSynth } from './testing/synth';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; DependsOn?: string[] };

const { synth, cleanup } = testSynth();

// Every test here synthesizes the whole stack at least once: on a loaded two-core machine that can
// take most of the default minute.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

function resourcesOf(template: Template, type: string): Record<string, Resource> {
  return template.findResources(type) as Record<string, Resource>;
}

/** The routes every stage deploys (dev-login exists only in the local runtime). */
const routes = deployedRoutes;

type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: Record<string, unknown> };

/** Every statement of every IAM policy attached to a role (by its logical id). */
function statementsOfRole(template: Template, roleLogicalId: string): Statement[] {
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) => (policy.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleLogicalId))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}

/** Every statement of every IAM policy attached to a function's role. */
function statementsOf(stack: MarketplaceStack, template: Template, fn: NodejsFunction): Statement[] {
  const fnResource = template.toJSON().Resources[logicalIdOf(stack, fn)] as Resource;
  return statementsOfRole(template, fnResource.Properties.Role['Fn::GetAtt'][0] as string);
}

/** A function's logical id in its own template (the stack's, or its route area's nested stack). */
const logicalIdOf = (_stack: MarketplaceStack, fn: NodejsFunction) => Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnFunction);
const actionsOf = (statements: Statement[], service: string) =>
  statements.flatMap((s) => [s.Action].flat().filter((a) => a.startsWith(`${service}:`)));

/** The actions (of one service) granted by every IAM policy attached to a route function's role. */
function dynamoActionsOf(stack: MarketplaceStack, template: Template, name: string, service = 'dynamodb'): string[] {
  const fn = stack.functions[name];
  if (!fn) throw new Error(`no function for route ${name}`);
  return actionsOf(statementsOf(stack, template, fn), service);
}

function environmentOf(stack: MarketplaceStack, template: Template, fn: NodejsFunction): Record<string, unknown> {
  const resource = template.toJSON().Resources[logicalIdOf(stack, fn)] as Resource;
  return resource.Properties.Environment.Variables as Record<string, unknown>;
}

/** Route and timer functions, with whether the manifest says they schedule timers. */
function everyFunction(stack: MarketplaceStack): { name: string; fn: NodejsFunction; scheduler: boolean }[] {
  return [
    ...routes.map((r) => ({ name: r.name, fn: stack.functions[r.name]!, scheduler: Boolean(r.scheduler) })),
    ...timers.map((t) => ({ name: t.name, fn: stack.timerFunctions[t.name]!, scheduler: Boolean(t.scheduler) })),
  ];
}

const schedulingVariables = ['SCHEDULE_GROUP', 'SCHEDULER_ROLE_ARN', 'TIMER_TARGET_PREFIX'];

/** A Scheduler role's statements: the others, and the right to send to the dead-letter queue. */
function splitDeadLetterStatements(statements: Statement[]): [Statement[], Statement[]] {
  const isSqs = (s: Statement) => [s.Action].flat().some((a) => a.startsWith('sqs:'));
  return [statements.filter((s) => !isSqs(s)), statements.filter(isSqs)];
}
const deadLetterStatement = (stack: MarketplaceStack) => ({
  Action: expect.arrayContaining(['sqs:SendMessage']),
  Effect: 'Allow',
  Resource: { 'Fn::GetAtt': [stack.getLogicalId(stack.deadLetterQueue.node.defaultChild as CfnQueue), 'Arn'] },
});

function firstRoute(grant: RouteDef['table']): RouteDef {
  const route = routes.find((r) => r.table === grant);
  if (!route) throw new Error(`the manifest has no route with table grant "${grant}"`);
  return route;
}

let prod: ReturnType<typeof synth>;

/** A synth takes up to a minute on a loaded two-core machine. */
const SYNTH_TIMEOUT = 180_000;

beforeAll(() => {
  prod = synth();
}, SYNTH_TIMEOUT);

/** Another stage with tracing on and an alarm address, built once for the tests that need one. */
let devTracedCache: ReturnType<typeof synth> | undefined;
const devTraced = () => (devTracedCache ??= synth({ stage: 'dev', tracing: true, alarmEmail: 'ops@example.com' }));

afterAll(cleanup);

describe('MarketplaceStack: data', () => {
  it('builds the single table from shared/table.ts: keys, every GSI, on-demand, PITR, TTL, AWS-managed encryption', () => {
    // Prepare
    const { template } = prod;
    const gsis = tableDef.indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    }));
    const attributes = [
      tableDef.partitionKey,
      tableDef.sortKey,
      ...tableDef.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
    ].map((name) => ({ AttributeName: name, AttributeType: 'S' }));

    // Act
    const tables = resourcesOf(template, 'AWS::DynamoDB::Table');

    // Assess
    expect(Object.keys(tables)).toHaveLength(1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: tableDef.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDef.sortKey, KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayEquals(attributes),
      GlobalSecondaryIndexes: Match.arrayEquals(gsis),
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: tableDef.ttlAttribute, Enabled: true },
      SSESpecification: { SSEEnabled: true },
    });
  });

  it('retains the table and bucket in prod and destroys them in other stages', () => {
    // Prepare
    const dev = synth({ stage: 'dev' });

    // Act
    const prodTable = Object.values(resourcesOf(prod.template, 'AWS::DynamoDB::Table'))[0];
    const devTable = Object.values(resourcesOf(dev.template, 'AWS::DynamoDB::Table'))[0];
    const prodBucket = Object.values(resourcesOf(prod.template, 'AWS::S3::Bucket'))[0];
    const devBucket = Object.values(resourcesOf(dev.template, 'AWS::S3::Bucket'))[0];

    // Assess
    expect(prodTable?.DeletionPolicy).toBe('Retain');
    expect(devTable?.DeletionPolicy).toBe('Delete');
    // Kept through updates and deletion, not through the rollback of a failed first deploy (infra/deploy-safety.test.ts).
    expect(prodBucket?.DeletionPolicy).toBe('RetainExceptOnCreate');
    expect(devBucket?.DeletionPolicy).toBe('Delete');
  });

  it('seeds every catalogue item with one BatchWriteItem allowed on that table only', () => {
    // Prepare
    const { stack, template } = prod;
    const tableLogicalId = stack.getLogicalId(stack.table.node.defaultChild as CfnTable);

    // Act
    const seeds = Object.values(resourcesOf(template, 'Custom::AWS'));
    const create = JSON.stringify(seeds.map((s) => s.Properties.Create));
    const update = JSON.stringify(seeds.map((s) => s.Properties.Update));

    // Assess
    expect(seeds.length).toBeGreaterThan(0);
    expect(create).toContain('batchWriteItem');
    for (const item of catalogItems()) {
      expect(create).toContain(`{\\"S\\":\\"${item.sk}\\"}`);
      expect(update).toContain(`{\\"S\\":\\"${item.sk}\\"}`);
    }
    expect(seeds.every((s) => s.Properties.InstallLatestAwsSdk === false)).toBe(true);
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          { Action: 'dynamodb:BatchWriteItem', Effect: 'Allow', Resource: { 'Fn::GetAtt': [tableLogicalId, 'Arn'] } },
        ],
      },
    });
  });
});

describe('MarketplaceStack: functions and routes', () => {
  it('makes one arm64 nodejs22.x function per manifest route, timer and socket route with the environment', () => {
    // Prepare
    const { stack, template } = prod;

    // Act
    const fns = resourcesOf(template, 'AWS::Lambda::Function');
    const ourFns = Object.values(fns).filter((f) => f.Properties.Runtime === 'nodejs22.x');
    const recurringIds = new Set(Object.values(stack.recurringFunctions).map((fn) => fns[logicalIdOf(stack, fn)]));
    // Routes that hash a password are given more memory, and with it more CPU (shared/routes.ts).
    const memoryOf = new Map(routes.map((r) => [fns[logicalIdOf(stack, stack.functions[r.name]!)], r.memoryMb ?? 256]));

    // Assess
    expect(Object.keys(stack.functions).sort()).toEqual(routes.map((r) => r.name).sort());
    expect(Object.keys(stack.timerFunctions).sort()).toEqual(timers.map((t) => t.name).sort());
    expect(Object.keys(stack.socketFunctions).sort()).toEqual(socketRoutes.map((r) => r.name).sort());
    expect(Object.keys(stack.streamFunctions).sort()).toEqual(streamConsumers.map((c) => c.name).sort());
    expect(Object.keys(stack.recurringFunctions).sort()).toEqual(recurring.map((j) => j.name).sort());
    expect(ourFns).toHaveLength(routes.length + timers.length + socketRoutes.length + streamConsumers.length + recurring.length);
    for (const fn of ourFns) {
      expect(fn.Properties).toMatchObject({
        Handler: 'index.handler',
        Architectures: ['arm64'],
        MemorySize: memoryOf.get(fn) ?? 256,
        // Requests get 10 s; a recurring job (one run a day over many items) gets 5 minutes.
        Timeout: recurringIds.has(fn) ? 300 : 10,
      });
      expect(fn.Properties.Environment.Variables).toMatchObject({
        TABLE_NAME: { Ref: stack.getLogicalId(stack.table.node.defaultChild as CfnTable) },
        STAGE: 'prod',
        PLATFORM_FEE_PERCENT: '10',
        SUPPORT_EMAIL: 'support@fixly.app',
        NODE_OPTIONS: '--enable-source-maps',
      });
      expect(fn.Properties.LoggingConfig.LogGroup).toEqual({ Ref: expect.any(String) });
    }
    // One shared group (Lambda names each stream after its function): a group per function would
    // take the stack past CloudFormation's 500 resources.
    template.resourcePropertiesCountIs('AWS::Logs::LogGroup', { RetentionInDays: 30 }, 1);
    expect(new Set(ourFns.map((f) => f.Properties.LoggingConfig.LogGroup.Ref)).size).toBe(1);
  });

  it('keeps each template (the stack and each route area\'s nested stack) under 450 of CloudFormation\'s 500 resources', () => {
    // Prepare
    const templates = [
      { name: prod.stack.stackName, template: prod.stackTemplate },
      ...[...prod.stack.routeStacks].map(([area, nested]) => ({ name: area, template: Template.fromStack(nested) })),
    ];

    // Act / Assess (infra/route-areas.test.ts grows the manifest to 150 routes)
    for (const { name, template } of templates) {
      expect(Object.keys(template.toJSON().Resources).length, name).toBeLessThan(450);
    }
  });

  it('makes one HTTP API route per manifest entry with its "METHOD /path" key and a payload 2.0 integration', () => {
    // Prepare
    const { template } = prod;

    // Act
    const keys = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route'))
      .filter((r) => r.Properties.ApiId.Ref === prod.stack.getLogicalId(prod.stack.api.node.defaultChild as CfnApi))
      .map((r) => r.Properties.RouteKey);

    // Assess
    expect(keys.sort()).toEqual(routes.map(routeKey).sort());
    template.resourcePropertiesCountIs(
      'AWS::ApiGatewayV2::Integration',
      { IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' },
      routes.length,
    );
  });

  it("never deploys the local runtime's own routes, nor a function that would honour them, on any stage", () => {
    // Prepare: prod, a dev stage, and a stage named like a laptop's but not 'local' itself
    const localOnly = (allRoutes as readonly RouteDef[]).filter((r) => r.localRuntimeOnly);
    const stacks = [prod, devTraced(), synth({ stage: 'local-test' })];

    for (const { stack, template } of stacks) {
      // Act
      const keys = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
      const environments = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).map(
        (fn) => (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>,
      );

      // Assess
      expect(localOnly.map((r) => r.name)).toContain('dev-login');
      expect(keys).not.toContain('POST /api/auth/dev-login');
      for (const route of localOnly) {
        expect(keys, stack.stackName).not.toContain(routeKey(route));
        expect(stack.functions[route.name], stack.stackName).toBeUndefined();
      }
      for (const variables of environments) {
        expect(variables, stack.stackName).not.toHaveProperty('LOCAL_RUNTIME');
        expect(variables.STAGE, stack.stackName).not.toBe('local');
      }
    }
  });

  it("refuses the local runtime's stage name 'local' with a sentence saying what to use instead", () => {
    // Act
    const synthLocal = () => synth({ stage: 'local' });

    // Assess
    expect(synthLocal).toThrow(/stage "local" is the local runtime's \(npm start\), not a stage to deploy: choose another name, e\.g\. -c stage=dev/);
  });

  it('keeps uploads in a private bucket reachable from the site by CORS, granted per route', () => {
    // Prepare
    const { stack, template } = prod;
    const byGrant = (grant: RouteDef['uploads']) => routes.find((r) => r.uploads === grant)!.name;

    // Act
    const reader = dynamoActionsOf(stack, template, byGrant('read'), 's3');
    const writer = dynamoActionsOf(stack, template, byGrant('write'), 's3');
    const neither = dynamoActionsOf(stack, template, routes.find((r) => !r.uploads)!.name, 's3');

    // Assess
    template.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('marketplace-uploads-prod-')])] },
      PublicAccessBlockConfiguration: Match.objectLike({ BlockPublicAcls: true, RestrictPublicBuckets: true }),
      CorsConfiguration: {
        CorsRules: [Match.objectLike({ AllowedMethods: ['POST', 'GET'], AllowedOrigins: [Match.anyValue()] })],
      },
    });
    expect(reader).toContain('s3:GetObject*');
    expect(reader).not.toContain('s3:PutObject');
    expect(writer).toContain('s3:PutObject');
    expect(writer).not.toContain('s3:GetObject*');
    expect(neither).toEqual([]);
  });

  it('throttles the default stage of the HTTP API', () => {
    // Prepare
    const { template } = prod;

    // Act
    const stages = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Stage')).filter(
      (stage) => stage.Properties.ApiId.Ref === prod.stack.getLogicalId(prod.stack.api.node.defaultChild as CfnApi),
    );

    // Assess
    expect(stages).toHaveLength(1);
    expect(stages[0]?.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingBurstLimit: 200, ThrottlingRateLimit: 100 },
    });
  });

  it('grants a "read" route only read actions on the table', () => {
    // Prepare
    const route = firstRoute('read');

    // Act
    const actions = dynamoActionsOf(prod.stack, prod.template, route.name);

    // Assess
    expect(actions).toContain('dynamodb:GetItem');
    expect(actions).toContain('dynamodb:Query');
    expect(actions).not.toContain('dynamodb:PutItem');
    expect(actions).not.toContain('dynamodb:UpdateItem');
    expect(actions).not.toContain('dynamodb:DeleteItem');
    expect(actions).not.toContain('dynamodb:BatchWriteItem');
  });

  it('grants a "write" route write actions and no reads', () => {
    // Prepare
    const route = firstRoute('write');

    // Act
    const actions = dynamoActionsOf(prod.stack, prod.template, route.name);

    // Assess
    expect(actions).toContain('dynamodb:PutItem');
    expect(actions).not.toContain('dynamodb:GetItem');
    expect(actions).not.toContain('dynamodb:Query');
  });

  it('grants a "none" route no DynamoDB permission at all', () => {
    // Prepare
    const route = firstRoute('none');

    // Act
    const actions = dynamoActionsOf(prod.stack, prod.template, route.name);

    // Assess
    expect(actions).toEqual([]);
  });

  it('passes the stage, fee rate and support email from props into every function environment', () => {
    // Prepare
    const { template } = synth({ stage: 'dev', platformFeePercent: 15, supportEmail: 'help@example.com' });

    // Act
    const envs = Object.values(resourcesOf(template, 'AWS::Lambda::Function'))
      .filter((f) => f.Properties.Runtime === 'nodejs22.x')
      .map((f) => f.Properties.Environment.Variables);

    // Assess
    expect(envs).toHaveLength(routes.length + timers.length + socketRoutes.length + streamConsumers.length + recurring.length);
    for (const env of envs) {
      expect(env).toMatchObject({ STAGE: 'dev', PLATFORM_FEE_PERCENT: '15', SUPPORT_EMAIL: 'help@example.com' });
    }
  });

  it('refuses a fee rate outside 0..100 with a readable error', () => {
    // Prepare
    const badRates = [-1, 101, Number.NaN];

    // Act
    const attempts = badRates.map((rate) => () => synth({ platformFeePercent: rate }));

    // Assess
    for (const attempt of attempts) expect(attempt).toThrow(/platformFeePercent must be a number between 0 and 100/);
  });
});

describe('MarketplaceStack: timers (EventBridge Scheduler)', () => {
  it('creates a schedule group named after the stack (and one for the recurring schedules, infra/deploy-safety.test.ts)', () => {
    // Prepare
    const { template } = prod;

    // Act
    const groups = Object.values(resourcesOf(template, 'AWS::Scheduler::ScheduleGroup'));

    // Assess
    expect(groups.map((g) => g.Properties.Name).sort()).toEqual(['Marketplace-prod-recurring', 'Marketplace-prod-timers']);
  });

  it('makes one function per timer, named so that a schedule can target it, with its table grant', () => {
    // Prepare
    const { stack, template } = prod;

    // Act
    const made = timers.map((timer) => {
      const fn = stack.timerFunctions[timer.name]!;
      const resource = template.toJSON().Resources[logicalIdOf(stack, fn)] as Resource;
      return { timer, props: resource.Properties, dynamo: actionsOf(statementsOf(stack, template, fn), 'dynamodb') };
    });

    // Assess
    expect(made).toHaveLength(timers.length);
    for (const { timer, props, dynamo } of made) {
      expect(props).toMatchObject({
        FunctionName: `Marketplace-prod-${timer.name}`,
        Handler: 'index.handler',
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: 256,
        Timeout: 10,
      });
      if (timer.table === 'readwrite') {
        expect(dynamo).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']));
      }
      expect(dynamo).not.toContain('dynamodb:Scan');
    }
  });

  it('gives Scheduler a role it alone may assume, from this account and group, that invokes only the timer functions', () => {
    // Prepare
    const { stack, template } = prod;
    const roleId = stack.getLogicalId(stack.schedulerRole.node.defaultChild as CfnRole);
    const role = template.toJSON().Resources[roleId] as Resource;
    const groupId = stack.getLogicalId(stack.timerGroup.node.defaultChild as CfnScheduleGroup);
    const timerArns = Object.values(stack.timerFunctions).map((fn) => ({ 'Fn::GetAtt': [logicalIdOf(stack, fn), 'Arn'] }));

    // Act
    const trust = role.Properties.AssumeRolePolicyDocument.Statement as Statement[];
    const statements = statementsOfRole(template, roleId);

    // Assess
    expect(trust).toEqual([
      {
        Action: 'sts:AssumeRole',
        Effect: 'Allow',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: {
          StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
          ArnLike: { 'aws:SourceArn': { 'Fn::GetAtt': [groupId, 'Arn'] } },
        },
      },
    ]);
    expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    const [invoke, deadLetter] = splitDeadLetterStatements(statements);
    expect(invoke).toEqual([{ Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: expect.any(Array) }]);
    expect(invoke[0]!.Resource).toEqual(expect.arrayContaining(timerArns));
    expect(invoke[0]!.Resource).toHaveLength(timers.length);
    expect(deadLetter).toEqual([deadLetterStatement(prod.stack)]);
  });

  it("points TIMER_TARGET_PREFIX at this stack's functions, so prefix + timer name is the timer function's ARN", () => {
    // Prepare
    const { stack, template } = prod;
    const env = environmentOf(stack, template, stack.functions['accept-job']!);

    // Act
    const parts = (env.TIMER_TARGET_PREFIX as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];

    // Assess
    expect(parts).toEqual([
      'arn:',
      { Ref: 'AWS::Partition' },
      ':lambda:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      ':function:Marketplace-prod-',
    ]);
    for (const timer of timers) {
      const fn = template.toJSON().Resources[logicalIdOf(stack, stack.timerFunctions[timer.name]!)] as Resource;
      expect(`Marketplace-prod-${timer.name}`).toBe(fn.Properties.FunctionName);
    }
  });

  it('lets a scheduling route (accept-job) create and delete schedules in the group and pass the role, nothing more', () => {
    // Prepare
    const { stack, template } = prod;
    const fn = stack.functions['accept-job']!;
    const roleId = stack.getLogicalId(stack.schedulerRole.node.defaultChild as CfnRole);

    // Act
    const env = environmentOf(stack, template, fn);
    const statements = statementsOf(stack, template, fn);
    const scheduling = statements.filter((s) => actionsOf([s], 'scheduler').length);
    const passing = statements.filter((s) => actionsOf([s], 'iam').length);

    // Assess
    expect(env).toMatchObject({
      SCHEDULE_GROUP: 'Marketplace-prod-timers',
      SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': [roleId, 'Arn'] },
      TIMER_TARGET_PREFIX: expect.anything(),
    });
    expect(scheduling).toEqual([
      {
        Action: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
        Effect: 'Allow',
        Resource: {
          'Fn::Join': [
            '',
            ['arn:', { Ref: 'AWS::Partition' }, ':scheduler:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':schedule/Marketplace-prod-timers/*'],
          ],
        },
      },
    ]);
    expect(passing).toEqual([
      {
        Action: 'iam:PassRole',
        Effect: 'Allow',
        Resource: { 'Fn::GetAtt': [roleId, 'Arn'] },
        Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      },
    ]);
  });

  it('gives the scheduling variables and rights to every function the manifest marks scheduler: true, and to no other', () => {
    // Prepare
    const { stack, template } = prod;

    // Act
    const seen = everyFunction(stack).map(({ name, fn, scheduler }) => {
      const env = environmentOf(stack, template, fn);
      const statements = statementsOf(stack, template, fn);
      return {
        name,
        scheduler,
        variables: schedulingVariables.filter((v) => v in env),
        rights: [...actionsOf(statements, 'scheduler'), ...actionsOf(statements, 'iam')],
      };
    });

    // Assess
    expect(seen.find((f) => f.name === 'get-config')).toEqual({ name: 'get-config', scheduler: false, variables: [], rights: [] });
    for (const f of seen) {
      expect(f, f.name).toEqual({
        name: f.name,
        scheduler: f.scheduler,
        variables: f.scheduler ? schedulingVariables : [],
        rights: f.scheduler ? ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'iam:PassRole'] : [],
      });
    }
  });

  it('has no policy that allows a scheduler action, iam:PassRole or lambda:InvokeFunction on every resource', () => {
    // Prepare
    const { template } = prod;

    // Act
    const statements = Object.values(resourcesOf(template, 'AWS::IAM::Policy')).flatMap(
      (p) => p.Properties.PolicyDocument.Statement as Statement[],
    );
    const risky = statements.filter((s) =>
      [s.Action].flat().some((a) => a.startsWith('scheduler:') || a === 'iam:PassRole' || a === 'lambda:InvokeFunction' || a === '*'),
    );

    // Assess
    expect(risky.length).toBeGreaterThan(0);
    for (const s of risky) {
      expect([s.Action].flat()).not.toContain('scheduler:*');
      expect([s.Action].flat()).not.toContain('*');
      expect([s.Resource].flat()).not.toContain('*');
    }
  });

  it('names the group and timer functions per stage, so two stages can share an account', () => {
    // Prepare
    const dev = synth({ stage: 'dev' });

    // Act
    const group = Object.values(resourcesOf(dev.template, 'AWS::Scheduler::ScheduleGroup'))[0];
    const names = Object.values(resourcesOf(dev.template, 'AWS::Lambda::Function'))
      .map((f) => f.Properties.FunctionName)
      .filter(Boolean);

    // Assess
    expect(group?.Properties.Name).toBe('Marketplace-dev-timers');
    expect(names.sort()).toEqual([...timers, ...recurring].map((t) => `Marketplace-dev-${t.name}`).sort());
  });
});

describe('MarketplaceStack: dispatch and geocoder settings', () => {
  let tuned: ReturnType<typeof synth>;
  beforeAll(() => {
    tuned = synth({ stage: 'demo', dispatch: { offerSeconds: 30, maxOffers: 3 }, geocoderUrl: 'https://geocoder.example.com' });
  });

  it('passes dispatch settings to the functions only when given, as whole numbers', () => {
    // Prepare (shared): the stack synthesized with two of the four settings.

    // Act
    const tunedEnvs = everyFunction(tuned.stack).map(({ fn }) => environmentOf(tuned.stack, tuned.template, fn));
    const defaultEnvs = everyFunction(prod.stack).map(({ fn }) => environmentOf(prod.stack, prod.template, fn));

    // Assess
    for (const env of tunedEnvs) {
      expect(env).toMatchObject({ OFFER_SECONDS: '30', MAX_OFFERS: '3' });
      expect(env).not.toHaveProperty('OFFERS_AT_ONCE');
      expect(env).not.toHaveProperty('ARRIVAL_GRACE_SECONDS');
    }
    for (const env of defaultEnvs) {
      for (const key of ['OFFER_SECONDS', 'OFFERS_AT_ONCE', 'MAX_OFFERS', 'ARRIVAL_GRACE_SECONDS']) expect(env).not.toHaveProperty(key);
    }
  });

  it('refuses a dispatch setting out of range with a readable error', () => {
    // Prepare
    const bad = [{ offerSeconds: 0 }, { offersAtOnce: 2.5 }, { arrivalGraceSeconds: 90_000 }];

    // Act
    const attempts = bad.map((dispatch) => () => synth({ stage: 'bad', dispatch }));

    // Assess
    for (const attempt of attempts) expect(attempt).toThrow(/must be a whole number between/);
  });

  it('gives GEOCODER_URL, when set, to the two geocode functions only', () => {
    // Prepare (shared): the stack synthesized with a geocoder URL.
    const { stack, template } = tuned;

    // Act
    const withUrl = everyFunction(stack)
      .filter(({ fn }) => 'GEOCODER_URL' in environmentOf(stack, template, fn))
      .map(({ name }) => name);
    const unset = everyFunction(prod.stack).filter(({ fn }) => 'GEOCODER_URL' in environmentOf(prod.stack, prod.template, fn));

    // Assess
    expect(withUrl.sort()).toEqual(['reverse-geocode', 'search-addresses']);
    expect(environmentOf(stack, template, stack.functions['search-addresses']!).GEOCODER_URL).toBe('https://geocoder.example.com');
    expect(unset).toEqual([]);
  });
});

describe('MarketplaceStack: Stripe', () => {
  it("tells only the functions that call Stripe the Stripe secret's id, never a key (infra/secrets.test.ts: who may read it)", () => {
    // Prepare (shared): the prod stack.
    const { stack, template } = prod;

    // Act
    const withId = everyFunction(stack).filter(({ fn }) => 'STRIPE_SECRET_ID' in environmentOf(stack, template, fn)).map(({ name }) => name);

    // Assess
    expect(withId.sort()).toEqual(routes.filter((r) => r.stripe).map((r) => r.name).sort());
    expect(environmentOf(stack, template, stack.functions['create-checkout-session']!).STRIPE_SECRET_ID).toBe('marketplace/prod/stripe');
    expect(JSON.stringify(template.toJSON())).not.toMatch(/sk_(test|live)_|resolve:secretsmanager:marketplace\/prod\/stripe/);
  });

  it('passes publicUrl to the Stripe functions when given and refuses one that is not an https origin', () => {
    const { stack, template } = synth({ stage: 'pay', publicUrl: 'https://fixly.example.com' });

    expect(environmentOf(stack, template, stack.functions['start-payout-onboarding']!).PUBLIC_URL).toBe('https://fixly.example.com');
    expect(environmentOf(stack, template, stack.functions['get-config']!)).not.toHaveProperty('PUBLIC_URL');
    expect(() => synth({ stage: 'bad', publicUrl: 'http://fixly.example.com/app' })).toThrow(/publicUrl must be an https origin/);
  });
});

describe('MarketplaceStack: realtime (/ws)', () => {
  const wsApiId = () => prod.stack.getLogicalId(prod.stack.webSocketApi.node.defaultChild as CfnApi);
  /** Who publishes to rooms: the socket functions, the timers and the routes marked realtime. */
  const publishers = () => [
    ...socketRoutes.map((r) => ({ name: r.name, fn: prod.stack.socketFunctions[r.name]! })),
    ...timers.map((t) => ({ name: t.name, fn: prod.stack.timerFunctions[t.name]! })),
    ...routes.filter((r) => r.realtime).map((r) => ({ name: r.name, fn: prod.stack.functions[r.name]! })),
  ];
  const nonPublishers = () => routes.filter((r) => !r.realtime).map((r) => ({ name: r.name, fn: prod.stack.functions[r.name]! }));
  const manageStatements = (fn: NodejsFunction) =>
    statementsOf(prod.stack, prod.template, fn).filter((s) => [s.Action].flat().some((a) => a.startsWith('execute-api:')));

  it('makes one WebSocket API route per socket route, each a Lambda proxy integration of its own function', () => {
    // Prepare
    const { stack, template } = prod;

    // Act
    const wsRoutes = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).filter((r) => r.Properties.ApiId.Ref === wsApiId());
    const integrations = resourcesOf(template, 'AWS::ApiGatewayV2::Integration');

    // Assess
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'WEBSOCKET', RouteSelectionExpression: '$request.body.action' });
    expect(wsRoutes.map((r) => r.Properties.RouteKey).sort()).toEqual(socketRoutes.map((r) => r.routeKey).sort());
    for (const socketRoute of socketRoutes) {
      const route = wsRoutes.find((r) => r.Properties.RouteKey === socketRoute.routeKey)!;
      const integrationId = (route.Properties.Target['Fn::Join'][1] as unknown[]).find((part) => typeof part === 'object') as { Ref: string };
      const integration = integrations[integrationId.Ref]!;
      expect(integration.Properties.IntegrationType).toBe('AWS_PROXY');
      expect(JSON.stringify(integration.Properties.IntegrationUri)).toContain(logicalIdOf(stack, stack.socketFunctions[socketRoute.name]!));
    }
  });

  it('deploys the WebSocket API on a throttled, auto-deployed stage named after the deployment stage', () => {
    // Act
    const stages = Object.values(resourcesOf(prod.template, 'AWS::ApiGatewayV2::Stage')).filter((s) => s.Properties.ApiId.Ref === wsApiId());

    // Assess
    expect(stages).toHaveLength(1);
    expect(stages[0]!.Properties).toMatchObject({
      StageName: 'prod',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingBurstLimit: 500, ThrottlingRateLimit: 250 },
    });
  });

  it('grants each socket function its manifest table grant', () => {
    // Act
    const granted = socketRoutes.map((r) => ({ route: r, actions: actionsOf(statementsOf(prod.stack, prod.template, prod.stack.socketFunctions[r.name]!), 'dynamodb') }));

    // Assess
    for (const { route, actions } of granted) {
      expect(route.table).toBe('readwrite');
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']));
      expect(actions).not.toContain('dynamodb:Scan');
    }
  });

  it("gives WEBSOCKET_ENDPOINT (the stage's https management endpoint) to every publishing function, and to no other", () => {
    // Prepare
    const expected = {
      'Fn::Join': ['', ['https://', { Ref: wsApiId() }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/prod']],
    };

    // Act
    const given = publishers().map(({ name, fn }) => [name, environmentOf(prod.stack, prod.template, fn).WEBSOCKET_ENDPOINT] as const);
    const others = nonPublishers().filter(({ fn }) => 'WEBSOCKET_ENDPOINT' in environmentOf(prod.stack, prod.template, fn));

    // Assess
    expect(publishers().length).toBeGreaterThan(socketRoutes.length + timers.length);
    for (const [name, value] of given) expect(value, name).toEqual(expected);
    expect(others.map((o) => o.name)).toEqual([]);
  });

  it('lets every publishing function POST, GET and DELETE @connections of this API and stage only, and no other function', () => {
    // Act
    const granted = publishers().map(({ name, fn }) => ({ name, statements: manageStatements(fn) }));
    const others = nonPublishers().filter(({ fn }) => manageStatements(fn).length > 0);

    // Assess
    for (const { name, statements } of granted) {
      expect(statements, name).toHaveLength(1);
      const [statement] = statements;
      expect(statement!.Action).toBe('execute-api:ManageConnections');
      const resources = [statement!.Resource].flat().map((r) => JSON.stringify(r));
      expect(resources.map((r) => /"\/prod\/(\w+)\/@connections\/\*"/.exec(r)?.[1]).sort()).toEqual(['DELETE', 'GET', 'POST']);
      for (const resource of resources) {
        expect(resource).toContain(`{"Ref":"${wsApiId()}"}`);
        expect(resource).toContain('":execute-api:"');
      }
    }
    expect(others.map((o) => o.name)).toEqual([]);
  });

  it('fronts the WebSocket API at /ws on the site distribution: stage as origin path, uncached, every viewer header but Host', () => {
    // Prepare
    const config = Object.values(resourcesOf(prod.template, 'AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;

    // Act
    const behaviour = config.CacheBehaviors.find((b: any) => b.PathPattern === '/ws');
    const origin = config.Origins.find((o: any) => o.Id === behaviour.TargetOriginId);

    // Assess
    expect(behaviour).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      CachePolicyId: cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId,
      OriginRequestPolicyId: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: expect.anything() }],
    });
    expect(origin.OriginPath).toBe('/prod');
    expect(origin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    expect(origin.DomainName).toEqual({
      'Fn::Join': ['', [{ Ref: wsApiId() }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]],
    });
  });

  it("sends /ws to the stage's root, keeping the query string, since the API answers nothing below it", () => {
    // Prepare
    const fn = Object.values(resourcesOf(prod.template, 'AWS::CloudFront::Function')).find((f) =>
      String(f.Properties.FunctionConfig.Comment).includes('WebSocket'),
    );
    const handler = new Function(`${fn!.Properties.FunctionCode as string}; return handler;`)() as (e: unknown) => { uri: string; querystring: unknown };

    // Act
    const rewritten = handler({ request: { uri: '/ws', querystring: { a: { value: '1' } }, headers: {} } });

    // Assess
    expect(fn!.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    expect(rewritten).toMatchObject({ uri: '/', querystring: { a: { value: '1' } } });
  });

  it('outputs the wss:// address of /ws on the site', () => {
    // Act
    const outputs = prod.template.toJSON().Outputs as Record<string, { Value: unknown }>;

    // Assess
    expect(JSON.stringify(outputs.WebSocketUrl?.Value)).toContain('wss://');
    expect(JSON.stringify(outputs.WebSocketUrl?.Value)).toContain('/ws');
  });
});

describe('MarketplaceStack: web push', () => {
  it("tells only the push routes and the stream consumer that delivers pushes the VAPID secret's id, never a key", () => {
    // Prepare (shared): the prod stack.
    const { stack, template } = prod;
    const all = [...everyFunction(stack), ...Object.entries(stack.socketFunctions).map(([name, fn]) => ({ name, fn })), ...Object.entries(stack.streamFunctions).map(([name, fn]) => ({ name, fn }))];

    // Act
    const withId = all.filter(({ fn }) => 'VAPID_SECRET_ID' in environmentOf(stack, template, fn)).map(({ name }) => name);

    // Assess: the functions that notify (accept-job, the timers, …) only store the notification.
    const expected = [...routes.filter((r) => 'push' in r && r.push).map((r) => r.name), ...streamConsumers.filter((c) => 'push' in c && c.push).map((c) => c.name)];
    expect(withId.sort()).toEqual(expected.sort());
    expect(environmentOf(stack, template, stack.streamFunctions['deliver-push']!).VAPID_SECRET_ID).toBe('marketplace/prod/vapid');
  });

  it("feeds deliver-push from the table's new-image stream through the manifest's filter, retrying a failed record twice", () => {
    // Prepare (shared): the prod stack.
    const { stack, template } = prod;

    // Act
    const table = Object.values(resourcesOf(template, 'AWS::DynamoDB::Table'))[0]!;
    const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping'));
    const forPush = mappings.filter((m) => JSON.stringify(m.Properties.FunctionName).includes(stack.getLogicalId(stack.streamFunctions['deliver-push']!.node.defaultChild as never)));

    // Assess
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    expect(forPush).toHaveLength(1);
    const filter = streamConsumers.find((c) => c.name === 'deliver-push')!.filter;
    expect(forPush[0]!.Properties).toMatchObject({
      StartingPosition: 'LATEST',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 2,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify(filter) }] },
    });
  });
});

describe('MarketplaceStack: web', () => {
  it('keeps every bucket (site, uploads and their access logs) private, encrypted and TLS-only', () => {
    // Prepare
    const { template } = prod;

    // Act
    const buckets = Object.values(resourcesOf(template, 'AWS::S3::Bucket'));
    const policies = Object.values(resourcesOf(template, 'AWS::S3::BucketPolicy'));

    // Assess
    expect(buckets).toHaveLength(5);
    for (const bucket of buckets) {
      expect(bucket.Properties).toMatchObject({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
      });
    }
    expect(policies).toHaveLength(5);
    for (const policy of policies) {
      expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    }
  });

  it('routes /api/* to the HTTP API and /ws to the WebSocket API uncached, and serves the bucket through OAC with a viewer-request SPA function', () => {
    // Prepare
    const { template } = prod;

    // Act
    const distributions = Object.values(resourcesOf(template, 'AWS::CloudFront::Distribution'));
    const config = distributions[0]?.Properties.DistributionConfig;

    // Assess
    expect(distributions).toHaveLength(1);
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(config.CacheBehaviors).toEqual([
      expect.objectContaining({
        PathPattern: '/api/*',
        CachePolicyId: cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId,
        OriginRequestPolicyId: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      }),
      expect.objectContaining({ PathPattern: '/ws' }),
    ]);
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: cloudfront.CachePolicy.CACHING_OPTIMIZED.cachePolicyId,
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: expect.anything() }],
      ResponseHeadersPolicyId: { Ref: expect.any(String) },
    });
    const apiOrigin = config.Origins.find((o: any) => JSON.stringify(o.DomainName).includes('ApiEndpoint'));
    expect(apiOrigin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
    expect(JSON.stringify(apiOrigin.DomainName)).toContain('ApiEndpoint');
    const s3Origin = config.Origins.find((o: any) => o.S3OriginConfig);
    expect(s3Origin.OriginAccessControlId).toBeDefined();
  });

  it('rewrites client-side routes to their prerendered page or /index.html and leaves files and nested assets alone', () => {
    // Prepare
    const fn = Object.values(resourcesOf(prod.template, 'AWS::CloudFront::Function')).find((f) =>
      String(f.Properties.FunctionConfig.Comment).includes('index.html'),
    );
    const code = fn?.Properties.FunctionCode as string;
    const handler = new Function(`${code}; return handler;`)() as (e: unknown) => { uri: string };
    const rewrite = (uri: string) => handler({ request: { uri, headers: {} } }).uri;

    // Act
    const results = {
      root: rewrite('/'),
      route: rewrite('/worker/dashboard'),
      nested: rewrite('/worker/jobs/abc123'),
      underPrerendered: rewrite('/services/plumbing'),
      asset: rewrite('/assets/index-abc.js'),
      icon: rewrite('/favicon.ico'),
      shell: rewrite('/index.html'),
    };
    const pages = Object.fromEntries(Object.keys(prerenderedPages).map((route) => [route, rewrite(route)]));

    // Assess
    expect(fn?.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    expect(results).toEqual({
      root: '/pages/home.html',
      route: '/index.html',
      nested: '/index.html',
      underPrerendered: '/index.html',
      asset: '/assets/index-abc.js',
      icon: '/favicon.ico',
      shell: '/index.html',
    });
    // Every page the build prerenders, and only those, is served for its route.
    expect(pages).toEqual(prerenderedPages);
  });

  it('adds security headers and deploys the web folder in two parts, one with an invalidation (infra/site-deploy.test.ts)', () => {
    // Prepare
    const { template } = prod;

    // Act
    const deployments = Object.values(resourcesOf(template, 'Custom::CDKBucketDeployment'));

    // Assess
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: Match.objectLike({
          StrictTransportSecurity: Match.objectLike({ Override: true }),
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
        }),
      },
    });
    expect(deployments).toHaveLength(2);
    expect(deployments.filter((d) => d.Properties.DistributionId !== undefined)).toHaveLength(1);
  });

  it('outputs the site URL, the API URL and the table name', () => {
    // Prepare
    const { template } = prod;

    // Act
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;

    // Assess
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['SiteUrl', 'ApiUrl', 'TableName']));
    expect(JSON.stringify(outputs.SiteUrl?.Value)).toContain('https://');
  });
});

describe('MarketplaceStack: compliance documents', () => {
  const prodStack = () => prod;
  let prod: ReturnType<typeof synth>;
  beforeAll(() => {
    prod = synth({ stage: 'prod' });
  });

  /** The S3 actions a route's role is granted, by resource pattern (the object ARNs' key part). */
  function s3Rights(name: string): Record<string, string[]> {
    const { stack, template } = prodStack();
    const rights: Record<string, string[]> = {};
    for (const statement of statementsOf(stack, template, stack.functions[name]!)) {
      const actions = [statement.Action].flat().filter((a) => a.startsWith('s3:'));
      if (!actions.length) continue;
      for (const resource of [statement.Resource].flat()) {
        const text = JSON.stringify(resource);
        const prefix = /\/(document-uploads|applications|documents|retained|uploads)\/\*/.exec(text)?.[1] ?? 'bucket';
        rights[prefix] = [...new Set([...(rights[prefix] ?? []), ...actions])].sort();
      }
    }
    return rights;
  }

  it('runs expire-documents daily at 06:15 UTC through an EventBridge Scheduler cron schedule whose role invokes that function alone', () => {
    // Prepare
    const { stack, template } = prodStack();
    const fnId = logicalIdOf(stack, stack.recurringFunctions['expire-documents']!);

    // Act
    const schedules = Object.values(resourcesOf(template, 'AWS::Scheduler::Schedule'));
    const schedule = schedules.find((s) => s.Properties.Name === 'Marketplace-prod-expire-documents');
    const roleId = schedule?.Properties.Target.RoleArn['Fn::GetAtt'][0] as string;
    const role = template.toJSON().Resources[roleId] as Resource;

    // Assess
    expect(schedule?.Properties).toMatchObject({
      ScheduleExpression: 'cron(15 6 * * ? *)',
      ScheduleExpressionTimezone: 'UTC',
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } },
    });
    expect(JSON.parse(schedule!.Properties.Target.Input)).toEqual({ source: 'aws.scheduler', schedule: 'expire-documents' });
    const [invoke, deadLetter] = splitDeadLetterStatements(statementsOfRole(template, roleId));
    expect(invoke).toEqual([{ Action: 'lambda:InvokeFunction', Effect: 'Allow', Resource: { 'Fn::GetAtt': [fnId, 'Arn'] } }]);
    expect(deadLetter).toEqual([deadLetterStatement(stack)]);
    const trust = role.Properties.AssumeRolePolicyDocument.Statement[0];
    expect(trust.Principal).toEqual({ Service: 'scheduler.amazonaws.com' });
    expect(trust.Condition.StringEquals).toEqual({ 'aws:SourceAccount': { Ref: 'AWS::AccountId' } });
  });

  it('gives expire-documents its table grant, the realtime endpoint and a longer timeout, and no bucket rights', () => {
    // Prepare
    const { stack, template } = prodStack();
    const fn = stack.recurringFunctions['expire-documents']!;

    // Act
    const statements = statementsOf(stack, template, fn);
    const resource = template.toJSON().Resources[logicalIdOf(stack, fn)] as Resource;

    // Assess
    expect(actionsOf(statements, 'dynamodb')).toEqual(expect.arrayContaining(['dynamodb:Query', 'dynamodb:UpdateItem']));
    expect(actionsOf(statements, 'dynamodb')).not.toContain('dynamodb:Scan');
    expect(actionsOf(statements, 's3')).toEqual([]);
    expect(actionsOf(statements, 'execute-api')).toEqual(['execute-api:ManageConnections']);
    expect(resource.Properties.Environment.Variables.WEBSOCKET_ENDPOINT).toBeDefined();
    expect(resource.Properties.Timeout).toBe(300);
  });

  it('lets purge-document-uploads delete document-uploads/ objects and nothing else in the bucket, daily at 06:45 UTC', () => {
    // Prepare
    const { stack, template } = prodStack();
    const fn = stack.recurringFunctions['purge-document-uploads']!;

    // Act
    const s3 = statementsOf(stack, template, fn).filter((s) => [s.Action].flat().some((a) => a.startsWith('s3:')));
    const schedule = Object.values(resourcesOf(template, 'AWS::Scheduler::Schedule')).find((s) => s.Properties.Name === 'Marketplace-prod-purge-document-uploads');

    // Assess
    expect(s3.flatMap((s) => [s.Action].flat()).sort()).toEqual(['s3:DeleteObject*']);
    expect(JSON.stringify(s3.map((s) => s.Resource))).toContain('/document-uploads/*');
    expect(JSON.stringify(s3.map((s) => s.Resource))).not.toContain('/documents/*');
    expect(schedule?.Properties.ScheduleExpression).toBe('cron(45 6 * * ? *)');
  });

  it.each([
    ['create-document-upload', { 'document-uploads': ['s3:PutObject', 's3:PutObjectLegalHold', 's3:PutObjectRetention', 's3:PutObjectTagging', 's3:PutObjectVersionTagging', 's3:Abort*'].sort() }],
    ['list-documents', {}],
    ['list-all-documents', {}],
    ['review-document', {}],
  ])('grants %s only its rights on the document prefixes', (name, expected) => {
    // Act
    const rights = s3Rights(name);

    // Assess
    expect(Object.keys(rights).sort()).toEqual(Object.keys(expected).sort());
    for (const [prefix, actions] of Object.entries(expected)) expect(rights[prefix]).toEqual(actions);
  });

  it('lets confirm read and delete uploads and write documents/, delete-document also write retained/ copies, and the downloads only read documents/', () => {
    // Act
    const confirm = s3Rights('confirm-document-upload');
    const remove = s3Rights('delete-document');
    const download = s3Rights('get-document-download');
    const adminDownload = s3Rights('get-admin-document-download');

    // Assess
    expect(confirm['document-uploads']).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:DeleteObject*']));
    expect(confirm['document-uploads']).not.toContain('s3:PutObject');
    expect(confirm.documents).toEqual(expect.arrayContaining(['s3:PutObject', 's3:DeleteObject*']));
    expect(confirm.documents).not.toContain('s3:GetObject*');
    expect(confirm.uploads).toBeUndefined();
    expect(confirm.retained).toBeUndefined();
    expect(remove.retained).toEqual(expect.arrayContaining(['s3:PutObject']));
    expect(remove.retained).not.toContain('s3:GetObject*');
    expect(remove.documents).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:DeleteObject*']));
    expect(remove['document-uploads']).toBeUndefined();
    for (const rights of [download, adminDownload]) {
      expect(rights['document-uploads']).toBeUndefined();
      expect(rights.documents).toEqual(expect.arrayContaining(['s3:GetObject*']));
      expect(rights.documents).not.toContain('s3:PutObject');
      expect(rights.documents?.some((a) => a.startsWith('s3:Delete'))).toBe(false);
      expect(rights.retained).toBeUndefined();
    }
  });

  it.each(['submit-worker-application', 'apply-worker', 'submit-company-application'])(
    'lets %s read and delete uploads/ and write applications/ copies, where no presigned POST writes',
    (name) => {
      // Act
      const rights = s3Rights(name);
      const presigner = s3Rights('create-upload');

      // Assess
      expect(rights.uploads).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:DeleteObject*']));
      expect(rights.uploads).not.toContain('s3:PutObject');
      expect(rights.applications).toEqual(expect.arrayContaining(['s3:PutObject']));
      expect(rights.applications).not.toContain('s3:GetObject*');
      expect(presigner).toEqual({ uploads: expect.arrayContaining(['s3:PutObject']) });
    },
  );

  it('lets the owner\'s application document link read applications/ copies and write nothing', () => {
    // Act
    const rights = s3Rights('get-application-document');

    // Assess
    expect(rights.applications).toEqual(expect.arrayContaining(['s3:GetObject*']));
    expect(Object.values(rights).flat().some((a) => a.startsWith('s3:Put') || a.startsWith('s3:Delete'))).toBe(false);
  });

  it('keeps documents in the private, encrypted, TLS-only uploads bucket and expires retained copies after each retention period', () => {
    // Prepare
    const { template } = prodStack();

    // Act
    const bucket = Object.values(resourcesOf(template, 'AWS::S3::Bucket')).find((b) =>
      JSON.stringify(b.Properties.BucketName ?? '').includes('marketplace-uploads'),
    )!;
    const rules = bucket.Properties.LifecycleConfiguration.Rules as { Prefix?: string; ExpirationInDays?: number; Status: string }[];

    // Assess
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm).toBe('AES256');
    const retained = rules.filter((r) => r.Prefix?.startsWith('retained/'));
    expect(retained.map((r) => [r.Prefix, r.ExpirationInDays, r.Status])).toEqual(
      retentionPeriods().map((years) => [`retained/${years}y/`, Math.ceil(years * 365.25), 'Enabled']),
    );
    const policy = Object.values(resourcesOf(template, 'AWS::S3::BucketPolicy')).find((p) =>
      JSON.stringify(p.Properties.Bucket).includes('UploadsBucket'),
    )!;
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });
});

// ---- The cloud stack's security and operations --------------------------------------------------

/** Synthesizes the stack from cdk context alone, as infra/app.ts does (bundling skipped). */
function synthFromContext(context: Record<string, unknown>, extra?: (stack: MarketplaceStack) => void) {
  const cdkContext = (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;
  const webAssetPath = mkdtempSync(join(tmpdir(), 'marketplace-web-'));
  writeFileSync(join(webAssetPath, 'index.html'), '<!doctype html>');
  const outdir = mkdtempSync(join(tmpdir(), 'marketplace-cdk-'));
  contextDirs.push(webAssetPath, outdir);
  const app = new App({ outdir, context: { ...cdkContext, ...context, 'aws:cdk:bundling-stacks': [] } });
  const stack = new MarketplaceStack(app, 'Marketplace-prod', { stage: 'prod', platformFeePercent: 10, supportEmail: 'support@fixly.app', webAssetPath });
  extra?.(stack);
  return { app, stack };
}
const contextDirs: string[] = [];
afterAll(() => contextDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

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
