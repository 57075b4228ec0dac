import { marshall } from '@aws-sdk/util-dynamodb';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ArnFormat, Aws, CfnOutput, Duration, Fn, RemovalPolicy, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod, PayloadFormatVersion, WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Effect, ManagedPolicy, PolicyStatement, Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, FilterCriteria, Runtime, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { CfnSchedule, ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { lambdaBundling } from './bundling';
import { catalogItems } from '../functions/lib/data/items';
import { recurring, routesFor, socketRoutes, streamConsumers, timers, type DocumentGrant, type RecurringDef, type RouteDef, type SocketRouteDef, type StreamConsumerDef, type TimerDef } from '../shared/routes';
import { table as tableDef } from '../shared/table';
import { retentionPeriods } from '../shared/document-categories';

export interface MarketplaceStackProps extends StackProps {
  /** Deployment stage, e.g. 'prod' or 'dev'. Only 'prod' keeps its data when the stack goes. */
  stage: string;
  /** The one platform fee rate (DESIGN.md section 8), 0..100. */
  platformFeePercent: number;
  supportEmail: string;
  /** Folder holding the built web app (index.html at its root). */
  webAssetPath: string;
  /**
   * Dispatch tuning (DESIGN.md section 8); each one absent here comes from the cdk context key of
   * the same name if set there, else the functions use shared/domain/dispatch.ts's default.
   */
  dispatch?: Partial<Record<DispatchSetting, number>>;
  /** A Nominatim-compatible geocoder for the two geocode routes (context "geocoderUrl"); default: the public Nominatim. */
  geocoderUrl?: string;
  /**
   * The Secrets Manager secret holding Stripe's keys as JSON `{ "secretKey": "sk_...", "webhookSecret": "whsec_..." }`
   * (context "stripeSecretName"; default `marketplace/<stage>/stripe`). Create it before deploying.
   */
  stripeSecretName?: string;
  /** The site's public origin for Stripe's return addresses (context "publicUrl"); default: the caller's Origin. */
  publicUrl?: string;
  /**
   * The Secrets Manager secret with the web push VAPID keys as JSON `{ "publicKey", "privateKey" }`
   * (context "vapidSecretName"; default `marketplace/<stage>/vapid`; `npx web-push generate-vapid-keys --json`).
   */
  vapidSecretName?: string;
}

/** Context key → function environment variable, with the range functions/lib/env.ts accepts. */
const dispatchSettings = {
  offerSeconds: { env: 'OFFER_SECONDS', min: 1, max: 3600 },
  offersAtOnce: { env: 'OFFERS_AT_ONCE', min: 1, max: 10 },
  maxOffers: { env: 'MAX_OFFERS', min: 1, max: 100 },
  arrivalGraceSeconds: { env: 'ARRIVAL_GRACE_SECONDS', min: 1, max: 24 * 3600 },
} as const;
type DispatchSetting = keyof typeof dispatchSettings;

/** The routes that call the geocoder, and so the only ones that get GEOCODER_URL. */
const geocodeRoutes: readonly string[] = ['search-addresses', 'reverse-geocode'];

/** The repository root, so entries resolve the same from the CLI, tsx and vitest. */
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Handlers are ESM; some bundled CommonJS dependencies still call require(). */
/** Rewrites extension-less paths (client-side routes) to the SPA shell; files pass through. */
const spaRewriteCode = `function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;

/**
 * A WebSocket API answers only on its stage's own path (`/<stage>`; anything after it is a 403), so
 * the site's `/ws` becomes `/` and the origin path supplies the stage.
 */
const webSocketPathCode = `function handler(event) {
  var request = event.request;
  request.uri = '/';
  return request;
}`;

/** "get-service" -> "GetService", for construct ids. */
function pascal(name: string): string {
  return name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

// Explicit action lists rather than grantReadData/grantWriteData: those include Scan, which no
// request path may use (DESIGN.md section 6), so IAM refuses it too.
const readActions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const writeActions = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];
const grants: Record<RouteDef['table'], readonly string[]> = {
  none: [],
  read: readActions,
  write: writeActions,
  readwrite: [...new Set([...readActions, ...writeActions])],
};

/**
 * The dispatch settings given (props first, then cdk context), checked here so that a bad value
 * fails the synth rather than every function's cold start.
 */
function dispatchEnvironment(given: (key: DispatchSetting) => unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, { env, min, max }] of Object.entries(dispatchSettings)) {
    const raw = given(key as DispatchSetting);
    if (raw === undefined || raw === null || raw === '') continue;
    const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`${key} must be a whole number between ${min} and ${max}, got ${JSON.stringify(raw)}`);
    }
    out[env] = String(value);
  }
  return out;
}

/** BatchWriteItem takes at most 25 requests. */
const BATCH_LIMIT = 25;

export class MarketplaceStack extends Stack {
  readonly table: dynamodb.Table;
  readonly api: HttpApi;
  readonly uploadsBucket: Bucket;
  readonly distribution: cloudfront.Distribution;
  /** The route functions, by route name. */
  readonly functions: Record<string, NodejsFunction> = {};
  /** The functions EventBridge Scheduler invokes, by timer name. */
  readonly timerFunctions: Record<string, NodejsFunction> = {};
  readonly timerGroup: ScheduleGroup;
  /** The WebSocket API of /ws and its functions, by socket route name. */
  readonly webSocketApi: WebSocketApi;
  readonly webSocketStage: WebSocketStage;
  readonly socketFunctions: Record<string, NodejsFunction> = {};
  /** The table stream's consumers (shared/routes.ts streamConsumers), by name. */
  readonly streamFunctions: Record<string, NodejsFunction> = {};
  /** The functions run on a recurring schedule (shared/routes.ts `recurring`), by name. */
  readonly recurringFunctions: Record<string, NodejsFunction> = {};
  /** The role EventBridge Scheduler assumes to invoke the timer functions. */
  readonly schedulerRole: Role;

  constructor(scope: Construct, id: string, props: MarketplaceStackProps) {
    super(scope, id, props);
    const { stage, platformFeePercent, supportEmail, webAssetPath } = props;
    if (!Number.isFinite(platformFeePercent) || platformFeePercent < 0 || platformFeePercent > 100) {
      throw new Error(`platformFeePercent must be a number between 0 and 100, got ${platformFeePercent}`);
    }
    if (!existsSync(webAssetPath)) {
      throw new Error(
        `The web asset folder "${webAssetPath}" does not exist: build the web app first (npm run build:web) ` +
          'or pass another folder with -c webAssetPath=<folder>.',
      );
    }
    const isProd = stage === 'prod';
    const removalPolicy = isProd ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    // ---- Data: the single table, built from shared/table.ts -------------------------------
    const str = dynamodb.AttributeType.STRING;
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: tableDef.partitionKey, type: str },
      sortKey: { name: tableDef.sortKey, type: str },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: tableDef.ttlAttribute,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: isProd,
      removalPolicy,
      // New images only: the stream consumers (shared/routes.ts streamConsumers) read what was written.
      stream: dynamodb.StreamViewType.NEW_IMAGE,
    });
    for (const index of tableDef.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: str },
        sortKey: { name: index.sortKey, type: str },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }

    // ---- Seed the service catalogue on every create/update ---------------------------------
    const items = catalogItems().map((item) => marshall(item));
    for (let start = 0, chunk = 0; start < items.length; start += BATCH_LIMIT, chunk++) {
      const batch = items.slice(start, start + BATCH_LIMIT);
      const call = {
        service: 'DynamoDB',
        action: 'batchWriteItem',
        parameters: {
          RequestItems: { [this.table.tableName]: batch.map((Item) => ({ PutRequest: { Item } })) },
        },
        physicalResourceId: PhysicalResourceId.of(`catalog-seed-${chunk}`),
      };
      new AwsCustomResource(this, chunk === 0 ? 'SeedCatalog' : `SeedCatalog${chunk}`, {
        onCreate: call,
        onUpdate: call,
        installLatestAwsSdk: false,
        policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [this.table.tableArn] }),
      });
    }

    // ---- One function and one HTTP route per manifest entry --------------------------------
    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `marketplace-${stage}`,
      description: `Home-services marketplace HTTP API (${stage})`,
      createDefaultStage: false,
    });
    const apiStage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { burstLimit: 200, rateLimit: 100 },
    });

    // ---- /ws: the WebSocket API (one function per socket route, below) ------------------------
    this.webSocketApi = new WebSocketApi(this, 'WebSocketApi', {
      apiName: `marketplace-ws-${stage}`,
      description: `Home-services marketplace realtime rooms, /ws (${stage})`,
    });
    // Named after the deployment stage: it is the path of both the sockets and @connections.
    const webSocketStageName = stage;
    this.webSocketStage = new WebSocketStage(this, 'WebSocketStage', {
      webSocketApi: this.webSocketApi,
      stageName: webSocketStageName,
      autoDeploy: true,
      // Every message is a Lambda invocation. A worker sharing their position sends one every 2 s
      // (shared/realtime.ts), so this carries some 500 sharing at once; each connection is held to
      // its own per-second limit by handle-socket-message.
      throttle: { burstLimit: 500, rateLimit: 250 },
    });
    const webSocketDomain = `${this.webSocketApi.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`;
    /**
     * Publishing (functions/lib/realtime.ts): the management endpoint and the right to post to, read
     * and close this API's connections on this stage, nothing more. Built from the API id and a
     * literal stage name, not from the stage construct, so that no function waits on a deployment.
     */
    const realtimeEnvironment = { WEBSOCKET_ENDPOINT: `https://${webSocketDomain}/${webSocketStageName}` };
    const grantRealtime = (role: IRole) => {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['execute-api:ManageConnections'],
          resources: ['POST', 'GET', 'DELETE'].map((method) =>
            this.formatArn({
              service: 'execute-api',
              resource: this.webSocketApi.apiId,
              resourceName: `${webSocketStageName}/${method}/@connections/*`,
              arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
            }),
          ),
        }),
      );
    };

    // ---- Uploads: private, reached only through presigned POSTs and GETs ---------------------
    // The name is built, not generated: functions refer to it by name and the bucket's CORS rule
    // refers to the distribution, which would otherwise close a dependency cycle
    // (bucket → distribution → API → functions → bucket).
    const uploadsBucketName = `marketplace-uploads-${stage}-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
    this.uploadsBucket = new Bucket(this, 'UploadsBucket', {
      bucketName: uploadsBucketName,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy,
      autoDeleteObjects: !isProd,
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Copies of deleted compliance documents, kept for their category's retention period (issue 7).
        ...retentionPeriods().map((years) => ({
          id: `retained-${years}y`,
          prefix: `retained/${years}y/`,
          expiration: Duration.days(Math.ceil(years * 365.25)),
        })),
      ],
    });
    const uploadsByName = Bucket.fromBucketName(this, 'UploadsBucketByName', uploadsBucketName);

    const context = (key: string): unknown => this.node.tryGetContext(key);
    const geocoderUrl = props.geocoderUrl ?? (context('geocoderUrl') as string | undefined);
    if (geocoderUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(geocoderUrl)) {
      throw new Error(`geocoderUrl must be an http(s) URL, got ${JSON.stringify(geocoderUrl)}`);
    }
    // Stripe's keys reach only the functions that call Stripe, as CloudFormation dynamic references
    // resolved at deploy time: the template and cdk.out never hold them.
    const stripeSecretName = props.stripeSecretName ?? (context('stripeSecretName') as string | undefined) ?? `marketplace/${stage}/stripe`;
    const publicUrl = props.publicUrl ?? (context('publicUrl') as string | undefined);
    if (publicUrl !== undefined && !/^https:\/\/[^\s/]+$/.test(publicUrl)) {
      throw new Error(`publicUrl must be an https origin without a path, got ${JSON.stringify(publicUrl)}`);
    }
    const stripeSecret = (field: 'secretKey' | 'webhookSecret') =>
      SecretValue.secretsManager(stripeSecretName, { jsonField: field }).unsafeUnwrap();
    // The VAPID keys go only to what sends or hands out push: the push routes and the stream consumer
    // that delivers urgent notifications (the functions that notify only store them), as dynamic
    // references like Stripe's.
    const vapidSecretName = props.vapidSecretName ?? (context('vapidSecretName') as string | undefined) ?? `marketplace/${stage}/vapid`;
    const vapidSecret = (field: 'publicKey' | 'privateKey') => SecretValue.secretsManager(vapidSecretName, { jsonField: field }).unsafeUnwrap();
    const pushEnvironment = { VAPID_PUBLIC_KEY: vapidSecret('publicKey'), VAPID_PRIVATE_KEY: vapidSecret('privateKey'), VAPID_SUBJECT: `mailto:${supportEmail}` };
    const stripeEnvironment = (route: RouteDef): Record<string, string> =>
      route.stripe
        ? {
            STRIPE_SECRET_KEY: stripeSecret('secretKey'),
            ...(route.rawBody ? { STRIPE_WEBHOOK_SECRET: stripeSecret('webhookSecret') } : {}),
            ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
          }
        : {};
    const environment = {
      TABLE_NAME: this.table.tableName,
      UPLOADS_BUCKET: uploadsBucketName,
      STAGE: stage,
      PLATFORM_FEE_PERCENT: String(platformFeePercent),
      SUPPORT_EMAIL: supportEmail,
      NODE_OPTIONS: '--enable-source-maps',
      ...dispatchEnvironment((key) => props.dispatch?.[key] ?? context(key)),
    };

    // ---- Timers: EventBridge Scheduler one-time schedules that invoke timer functions ---------
    // Names are built, not generated: a schedule's target is `<prefix><timer name>`
    // (functions/lib/scheduler.ts), so the prefix must be known before the functions exist.
    const timerGroupName = `${this.stackName}-timers`;
    const timerFunctionName = (timer: TimerDef) => `${this.stackName}-${timer.name}`;
    // The group holds only pending one-time timers of this stack's functions: nothing to keep.
    this.timerGroup = new ScheduleGroup(this, 'TimerGroup', {
      scheduleGroupName: timerGroupName,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.schedulerRole = new Role(this, 'TimerSchedulerRole', {
      description: `EventBridge Scheduler invokes the timer functions (${stage})`,
      // Only schedules of this account, in this stack's group, may use the role (confused deputy).
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: { 'aws:SourceArn': this.timerGroup.scheduleGroupArn },
        },
      }),
    });
    const schedulingEnvironment = {
      SCHEDULE_GROUP: timerGroupName,
      SCHEDULER_ROLE_ARN: this.schedulerRole.roleArn,
      TIMER_TARGET_PREFIX: this.formatArn({
        service: 'lambda',
        resource: 'function',
        resourceName: `${this.stackName}-`,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
    };
    const schedulesInGroup = this.formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${timerGroupName}/*`,
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
    /** Create and delete the group's schedules, and hand Scheduler its role: nothing more. */
    const grantScheduling = (role: IRole) => {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule'],
          resources: [schedulesInGroup],
        }),
      );
      role.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: ['iam:PassRole'],
          resources: [this.schedulerRole.roleArn],
          conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
        }),
      );
    };

    // One log group for every function: Lambda names each stream in a shared group after its function
    // (YYYY/MM/DD/<function>[<version>]...), so nothing is lost, and a group per function would cost
    // one of CloudFormation's 500 resources per route; with the realtime and push routes the stack
    // passed that limit.
    const logGroup = new LogGroup(this, 'FunctionLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy,
    });

    /**
     * What a function may touch, from its manifest entry. Functions that need exactly the same share
     * one role: least privilege is unchanged (a role holds what each of its functions needs and no
     * more), and a role and a policy per function would cost two of CloudFormation's 500 resources
     * for each of some ninety functions. `own` gives a function a role of its own (a stream consumer,
     * whose event source adds the stream's rights to it).
     */
    interface Needs {
      table: RouteDef['table'];
      uploads?: 'read' | 'write';
      documents?: readonly DocumentGrant[];
      scheduler?: boolean;
      realtime?: boolean;
      own?: string;
    }
    const roles = new Map<string, Role>();
    const roleFor = (needs: Needs): Role => {
      const parts = [
        `table-${needs.table}`,
        ...(needs.uploads ? [`uploads-${needs.uploads}`] : []),
        ...[...new Set(needs.documents ?? [])].sort().map((d) => `documents-${d}`),
        ...(needs.scheduler ? ['scheduler'] : []),
        ...(needs.realtime ? ['realtime'] : []),
        ...(needs.own ? [`only-${needs.own}`] : []),
      ];
      const key = parts.join('-');
      const existing = roles.get(key);
      if (existing) return existing;
      const role = new Role(this, `FunctionRole${pascal(key)}`, {
        description: `Functions needing ${parts.join(', ')} (${stage})`,
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
      });
      const actions = grants[needs.table];
      if (actions.length) this.table.grant(role, ...actions);
      if (needs.uploads === 'read') uploadsByName.grantRead(role, 'uploads/*');
      if (needs.uploads === 'write') uploadsByName.grantPut(role, 'uploads/*');
      for (const right of new Set(needs.documents ?? [])) {
        if (right === 'read') uploadsByName.grantRead(role, 'documents/*');
        if (right === 'write') uploadsByName.grantPut(role, 'documents/*');
        if (right === 'delete') uploadsByName.grantDelete(role, 'documents/*');
        if (right === 'retain') uploadsByName.grantPut(role, 'retained/*');
      }
      if (needs.scheduler) grantScheduling(role);
      if (needs.realtime) grantRealtime(role);
      roles.set(key, role);
      return role;
    };

    /** Every function, route, timer or socket, is built and configured the same way. */
    const lambda = (
      id: string,
      name: string,
      options: { description: string; environment: Record<string, string>; role: IRole; functionName?: string; timeout?: Duration },
    ) => {
      return new NodejsFunction(this, `${id}Fn`, {
        description: options.description,
        functionName: options.functionName,
        role: options.role,
        entry: `${repoRoot}functions/${name}.ts`,
        handler: 'handler',
        projectRoot: repoRoot,
        depsLockFilePath: `${repoRoot}package-lock.json`,
        runtime: Runtime.NODEJS_22_X,
        architecture: Architecture.ARM_64,
        memorySize: 256,
        timeout: options.timeout ?? Duration.seconds(10),
        logGroup,
        environment: options.environment,
        bundling: {
          ...lambdaBundling,
          mainFields: [...lambdaBundling.mainFields],
          format: OutputFormat.ESM,
          // A linked .map file: --enable-source-maps finds it through the sourceMappingURL comment.
          sourceMap: true,
          sourceMapMode: SourceMapMode.DEFAULT,
          // Bundled and tree-shaken, the SDK imports several times faster than the runtime's copy
          // (npm run bench), and its version is the one tested here.
          bundleAwsSDK: true,
        },
      });
    };

    // Routes limited to other stages (dev-login: local only) are not deployed at all.
    for (const route of routesFor(stage)) {
      const id = pascal(route.name);
      const fn = lambda(id, route.name, {
        description: `${route.method} ${route.path} (${stage})`,
        environment: {
          ...environment,
          ...(route.scheduler ? schedulingEnvironment : {}),
          ...(geocoderUrl && geocodeRoutes.includes(route.name) ? { GEOCODER_URL: geocoderUrl } : {}),
          ...stripeEnvironment(route),
          ...(route.realtime ? realtimeEnvironment : {}),
          ...(route.push ? pushEnvironment : {}),
        },
        role: roleFor({
          table: route.table,
          uploads: route.uploads,
          documents: route.documents,
          scheduler: route.scheduler,
          realtime: route.realtime,
        }),
      });
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${id}Integration`, fn, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        }),
      });
      this.functions[route.name] = fn;
    }

    // Timers tell the customer and the worker what they changed (an offer expired, a job reassigned).
    for (const timer of timers as readonly TimerDef[]) {
      const fn = lambda(`${pascal(timer.name)}Timer`, timer.name, {
        description: `Timer ${timer.name}, invoked by EventBridge Scheduler (${stage})`,
        functionName: timerFunctionName(timer),
        environment: { ...environment, ...(timer.scheduler ? schedulingEnvironment : {}), ...realtimeEnvironment },
        role: roleFor({ table: timer.table, scheduler: timer.scheduler, realtime: true }),
      });
      this.timerFunctions[timer.name] = fn;
    }

    // The socket functions answer on their own connection (joined, pong, errors) and relay to rooms.
    for (const socketRoute of socketRoutes as readonly SocketRouteDef[]) {
      const id = pascal(socketRoute.name);
      const fn = lambda(id, socketRoute.name, {
        description: `WebSocket ${socketRoute.routeKey} of /ws (${stage})`,
        environment: { ...environment, ...realtimeEnvironment },
        role: roleFor({ table: socketRoute.table, realtime: true }),
      });
      this.webSocketApi.addRoute(socketRoute.routeKey, { integration: new WebSocketLambdaIntegration(`${id}Integration`, fn) });
      this.socketFunctions[socketRoute.name] = fn;
    }
    // Stream consumers: the event source mapping applies the manifest's filter, so only the records a
    // consumer wants invoke it. A failed record is retried twice and then left, split out of its batch
    // so the others go on; the consumer reports which ones failed.
    for (const consumer of streamConsumers as readonly StreamConsumerDef[]) {
      const fn = lambda(`${pascal(consumer.name)}Stream`, consumer.name, {
        description: `Table stream consumer ${consumer.name} (${stage})`,
        environment: { ...environment, ...(consumer.push ? pushEnvironment : {}) },
        role: roleFor({ table: consumer.table, own: consumer.name }),
      });
      fn.addEventSource(
        new DynamoEventSource(this.table, {
          startingPosition: StartingPosition.LATEST,
          batchSize: 25,
          bisectBatchOnError: true,
          retryAttempts: 2,
          reportBatchItemFailures: true,
          filters: [FilterCriteria.filter(consumer.filter)],
        }),
      );
      this.streamFunctions[consumer.name] = fn;
    }

    // Recurring jobs (shared/routes.ts `recurring`): an EventBridge Scheduler cron schedule each, with
    // a role that may invoke that one function; the schedule's input is its sample event.
    for (const job of recurring as readonly RecurringDef[]) {
      const fn = lambda(`${pascal(job.name)}Recurring`, job.name, {
        description: `${job.description} (${stage})`,
        functionName: `${this.stackName}-${job.name}`,
        environment: { ...environment, ...(job.realtime ? realtimeEnvironment : {}) },
        role: roleFor({ table: job.table, realtime: job.realtime, documents: job.documents }),
        timeout: Duration.minutes(5),
      });
      const scheduleName = `${this.stackName}-${job.name}`;
      const role = new Role(this, `${pascal(job.name)}ScheduleRole`, {
        description: `EventBridge Scheduler runs ${job.name} (${stage})`,
        assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
          conditions: {
            StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
            ArnLike: {
              'aws:SourceArn': this.formatArn({
                service: 'scheduler',
                resource: 'schedule',
                resourceName: `default/${scheduleName}`,
                arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
              }),
            },
          },
        }),
      });
      role.addToPolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));
      new CfnSchedule(this, `${pascal(job.name)}Schedule`, {
        name: scheduleName,
        description: job.description,
        scheduleExpression: job.cron,
        scheduleExpressionTimezone: 'UTC',
        flexibleTimeWindow: { mode: 'OFF' },
        state: 'ENABLED',
        target: {
          arn: fn.functionArn,
          roleArn: role.roleArn,
          input: readFileSync(`${repoRoot}events/${job.name}.json`, 'utf8'),
          retryPolicy: { maximumRetryAttempts: 3, maximumEventAgeInSeconds: 6 * 3600 },
        },
      });
      this.recurringFunctions[job.name] = fn;
    }

    // The function ARNs, not a wildcard: the role can invoke the timers and no other function.
    const timerArns = Object.values(this.timerFunctions).map((fn) => fn.functionArn);
    if (timerArns.length) {
      this.schedulerRole.addToPolicy(
        new PolicyStatement({ effect: Effect.ALLOW, actions: ['lambda:InvokeFunction'], resources: timerArns }),
      );
    }

    // ---- Web: private bucket behind CloudFront, /api/* to the HTTP API ----------------------
    const siteBucket = new Bucket(this, 'SiteBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy,
      autoDeleteObjects: !isProd,
    });

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      comment: 'Serve index.html for client-side routes (paths without a file extension)',
      code: cloudfront.FunctionCode.fromInline(spaRewriteCode),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `Security headers (${stage})`,
      securityHeadersBehavior: {
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
        xssProtection: { protection: true, modeBlock: true, override: true },
      },
    });

    // apiEndpoint is "https://<id>.execute-api.<region>.amazonaws.com": keep the host part.
    const apiDomain = Fn.select(2, Fn.split('/', this.api.apiEndpoint));

    const webSocketPath = new cloudfront.Function(this, 'WebSocketPath', {
      comment: 'Send /ws to the root of the WebSocket API stage (the origin path)',
      code: cloudfront.FunctionCode.fromInline(webSocketPathCode),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `Home-services marketplace (${stage})`,
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(siteBucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [{ function: spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: new HttpOrigin(apiDomain, { protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: securityHeaders,
          compress: true,
        },
        // Same origin as the site, so the handshake carries the customer and owner cookies. Every
        // viewer header but Host reaches API Gateway (Sec-WebSocket-Key/-Version/-Protocol/-Extensions,
        // Cookie, and the query string): execute-api routes on its own Host name and refuses ours.
        '/ws': {
          origin: new HttpOrigin(webSocketDomain, {
            originPath: `/${webSocketStageName}`,
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
          }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          functionAssociations: [{ function: webSocketPath, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
          compress: false,
        },
      },
    });

    // Browsers post uploads straight to the bucket from the site's origin.
    this.uploadsBucket.addCorsRule({
      allowedOrigins: [`https://${this.distribution.distributionDomainName}`],
      allowedMethods: [HttpMethods.POST, HttpMethods.GET],
      allowedHeaders: ['*'],
      maxAge: 3000,
    });

    new BucketDeployment(this, 'DeploySite', {
      sources: [Source.asset(webAssetPath)],
      destinationBucket: siteBucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });

    new CfnOutput(this, 'SiteUrl', { value: `https://${this.distribution.distributionDomainName}` });
    new CfnOutput(this, 'ApiUrl', { value: apiStage.url });
    new CfnOutput(this, 'WebSocketUrl', { value: `wss://${this.distribution.distributionDomainName}/ws` });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'TimerGroupName', { value: timerGroupName });
  }
}
