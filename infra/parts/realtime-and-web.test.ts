import { Match } from 'aws-cdk-lib/assertions';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { CfnApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { retentionPeriods } from '../../shared/document-categories';
import { socketRoutes, streamConsumers, timers } from '../../shared/routes';
import { prerenderedPages } from '../../web/src/app/prerendered-pages';
import { peakLocationFramesPerSecond, webSocketThrottle } from '../throttling';
import { fileSynths, SYNTH_TIMEOUT } from '../testing/synth';
import {
  actionsOf,
  deadLetterStatement,
  environmentOf,
  everyFunction,
  logicalIdOf,
  resourcesOf,
  routes,
  splitDeadLetterStatements,
  statementsOf,
  statementsOfRole,
  type Resource,
} from '../testing/template-queries';

/**
 * The synthesized MarketplaceStack's realtime and web side: the WebSocket API (realtime.ts), web
 * push from the table's stream (stream-consumers.ts), the site and its distribution (site.ts,
 * edge-code.ts), and the compliance documents in the uploads bucket with their recurring jobs
 * (uploads.ts, recurring.ts).
 */

const { synth } = fileSynths();

// Every test here synthesizes the whole stack at least once: on a loaded two-core machine that can
// take most of the default minute.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let prod: ReturnType<typeof synth>;

beforeAll(() => {
  prod = synth();
}, SYNTH_TIMEOUT);

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
      DefaultRouteSettings: { ThrottlingBurstLimit: webSocketThrottle.burstLimit, ThrottlingRateLimit: webSocketThrottle.rateLimit },
    });
  });

  it("sizes the /ws throttle above the model's peak of location frames, within API Gateway's account limits", () => {
    // Act
    const peak = peakLocationFramesPerSecond();

    // Assess
    expect(Math.round(peak)).toBe(5708);
    expect(webSocketThrottle.rateLimit).toBeGreaterThanOrEqual(1.3 * peak);
    expect(webSocketThrottle.rateLimit).toBeLessThanOrEqual(10_000);
    expect(webSocketThrottle.burstLimit).toBeLessThanOrEqual(5000);
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
    expect(environmentOf(stack, template, stack.streamFunctions['follow-table-changes']!).VAPID_SECRET_ID).toBe('marketplace/prod/vapid');
  });

  it("feeds push delivery (follow-table-changes) from the table's new-image stream through the manifest's filters, retrying a failed record twice", () => {
    // Prepare (shared): the prod stack.
    const { stack, template } = prod;

    // Act
    const table = Object.values(resourcesOf(template, 'AWS::DynamoDB::Table'))[0]!;
    const mappings = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping'));
    const forPush = mappings.filter((m) => JSON.stringify(m.Properties.FunctionName).includes(stack.getLogicalId(stack.streamFunctions['follow-table-changes']!.node.defaultChild as never)));

    // Assess
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    expect(forPush).toHaveLength(1);
    const { filters } = streamConsumers.find((c) => c.name === 'follow-table-changes')!;
    expect(forPush[0]!.Properties).toMatchObject({
      StartingPosition: 'LATEST',
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 2,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: { Filters: filters.map((filter) => ({ Pattern: JSON.stringify(filter) })) },
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
  // The file's prod stack (synth() is stage prod with the default props): a second prod synth here
  // would only make the file slower.
  const prodStack = () => prod;

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
