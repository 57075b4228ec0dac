import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogItems } from '../../functions/catalog/data/items';
import { recurring, routeKey, routes as allRoutes, socketRoutes, streamConsumers, timers, type RouteDef } from '../../shared/routes';
import { table as tableDef } from '../../shared/table';
import { fileSynths, SYNTH_TIMEOUT } from '../testing/synth';
import {
  actionsOf,
  deadLetterStatement,
  dynamoActionsOf,
  environmentOf,
  everyFunction,
  firstRoute,
  logicalIdOf,
  resourcesOf,
  routes,
  schedulingVariables,
  splitDeadLetterStatements,
  statementsOf,
  statementsOfRole,
  type Resource,
  type Statement,
} from '../testing/template-queries';

/**
 * The synthesized MarketplaceStack's data and compute: the table (data-table.ts), the functions
 * and HTTP routes the manifest asks for (functions.ts, routes.ts, http-api.ts, uploads.ts), the
 * timers (timers.ts), and the settings the functions are given (settings.ts, secrets.ts).
 */

const { synth, devTraced } = fileSynths();

// Every test here synthesizes the whole stack at least once: on a loaded two-core machine that can
// take most of the default minute.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let prod: ReturnType<typeof synth>;

beforeAll(() => {
  prod = synth();
}, SYNTH_TIMEOUT);

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

  it('gives GEOCODER=nominatim and GEOCODER_URL, when a URL is set, to the two geocode functions only, and grants them nothing of Amazon Location', () => {
    // Prepare (shared): the stack synthesized with a geocoder URL.
    const { stack, template } = tuned;

    // Act
    const told = everyFunction(stack)
      .filter(({ fn }) => 'GEOCODER_URL' in environmentOf(stack, template, fn) || 'GEOCODER' in environmentOf(stack, template, fn))
      .map(({ name }) => name);
    const granted = rolesGrantingGeo(template);

    // Assess
    expect(told.sort()).toEqual(['reverse-geocode', 'search-addresses']);
    expect(environmentOf(stack, template, stack.functions['search-addresses']!)).toMatchObject({ GEOCODER: 'nominatim', GEOCODER_URL: 'https://geocoder.example.com' });
    expect(granted).toEqual([]);
  });

  it('chooses Amazon Location by default, telling the two geocode functions only, never a Nominatim URL', () => {
    // Prepare (shared): the prod stack, no geocoder setting.
    const { stack, template } = prod;

    // Act
    const told = everyFunction(stack).filter(({ fn }) => 'GEOCODER' in environmentOf(stack, template, fn)).map(({ name }) => name);
    const withUrl = everyFunction(stack).filter(({ fn }) => 'GEOCODER_URL' in environmentOf(stack, template, fn));

    // Assess
    expect(told.sort()).toEqual(['reverse-geocode', 'search-addresses']);
    for (const name of told) expect(environmentOf(stack, template, stack.functions[name]!).GEOCODER).toBe('amazon-location');
    expect(withUrl).toEqual([]);
  });

  it("grants Geocode and ReverseGeocode on the region's Places provider to the geocode functions' role, and no geo action to any other role", () => {
    // Prepare (shared): the prod stack, Amazon Location by default.
    const { stack, template } = prod;
    const geocodeRole = roleIdOf(template, logicalIdOf(stack, stack.functions['search-addresses']!));

    // Act
    const granted = rolesGrantingGeo(template);
    const statements = statementsOfRole(template, geocodeRole).filter((s) => [s.Action].flat().some(isGeoAction));
    const functionsWithRole = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'))
      .filter(([, fn]) => JSON.stringify(fn.Properties.Role).includes(`"${geocodeRole}"`))
      .map(([id]) => id);

    // Assess
    expect(granted).toEqual([geocodeRole]);
    expect(statements).toEqual([
      {
        Effect: 'Allow',
        Action: ['geo-places:Geocode', 'geo-places:ReverseGeocode'],
        Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':geo-places:', { Ref: 'AWS::Region' }, '::provider/default']] },
      },
    ]);
    expect(functionsWithRole.sort()).toEqual(
      ['search-addresses', 'reverse-geocode'].map((name) => logicalIdOf(stack, stack.functions[name]!)).sort(),
    );
  });

  it('refuses a geocoder it does not know, Nominatim without its URL, and a URL beside another geocoder', () => {
    // Prepare
    const bad: [Parameters<typeof synth>[0], RegExp][] = [
      [{ stage: 'geo', geocoder: 'bing' as never }, /geocoder must be one of amazon-location, nominatim, none/],
      [{ stage: 'geo', geocoder: 'nominatim' }, /geocoder "nominatim" needs geocoderUrl/],
      [{ stage: 'geo', geocoder: 'amazon-location', geocoderUrl: 'https://nominatim.example.com' }, /geocoderUrl is for geocoder "nominatim" only/],
    ];

    // Act
    const attempts = bad.map(([props, message]) => [() => synth(props), message] as const);

    // Assess
    for (const [attempt, message] of attempts) expect(attempt).toThrow(message);
  });
});

/** Any action of Amazon Location, old (geo:) or new (geo-places:, geo-maps:, geo-routes:), or a wildcard that would cover one. */
const isGeoAction = (action: string) => /^geo(-[a-z]+)?:/.test(action) || action === '*' || /^geo[^:]*\*/.test(action);

/** The logical id of the role a function (by logical id) runs as. */
function roleIdOf(template: Template, functionId: string): string {
  return (template.toJSON().Resources[functionId] as Resource).Properties.Role['Fn::GetAtt'][0] as string;
}

/** Every role some policy lets take an Amazon Location action: attached policies, managed policies and inline ones. */
function rolesGrantingGeo(template: Template): string[] {
  const grants = (document: { Statement?: Statement[] } | undefined) =>
    (document?.Statement ?? []).some((s) => s.Effect === 'Allow' && [s.Action].flat().some(isGeoAction));
  const roles = new Set<string>();
  for (const type of ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy']) {
    for (const policy of Object.values(resourcesOf(template, type))) {
      if (!grants(policy.Properties.PolicyDocument)) continue;
      for (const role of (policy.Properties.Roles ?? []) as { Ref: string }[]) roles.add(role.Ref);
    }
  }
  for (const [id, role] of Object.entries(resourcesOf(template, 'AWS::IAM::Role'))) {
    if (((role.Properties.Policies ?? []) as { PolicyDocument: { Statement?: Statement[] } }[]).some((p) => grants(p.PolicyDocument))) roles.add(id);
  }
  return [...roles].sort();
}

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
