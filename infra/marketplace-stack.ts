import { marshall } from '@aws-sdk/util-dynamodb';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ArnFormat, Aws, CfnOutput, Duration, Fn, RemovalPolicy, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, LogGroupLogDestination, PayloadFormatVersion, WebSocketApi, WebSocketStage, type CfnStage, type HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Effect, ManagedPolicy, PolicyStatement, Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, FilterCriteria, Runtime, StartingPosition, Tracing } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { CfnSchedule, ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { lambdaBundling } from './bundling';
import { EdgeFirewall } from './waf';
import { Monitoring } from './monitoring';
import { acknowledgeNagFindings } from './nag';
import { defaultThrottle, throttleFor } from './throttling';
import { contentSecurityPolicyFor, HSTS_MAX_AGE_SECONDS, securityHeadersFor, strictTransportSecurity } from '../shared/security-headers';
import { catalogItems } from '../functions/lib/data/items';
import { deployedRoutes, recurring, socketRoutes, streamConsumers, timers, type DocumentGrant, type RecurringDef, type RouteDef, type SocketRouteDef, type StreamConsumerDef, type TimerDef } from '../shared/routes';
import { table as tableDef } from '../shared/table';
import { retentionPeriods } from '../shared/document-categories';

/** The distance unit a context value names, undefined when unset; anything but mi or km is refused. */
function distanceUnitOf(value: unknown): 'mi' | 'km' | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value === 'mi' || value === 'km') return value;
  throw new Error(`context "distanceUnit" must be mi or km, got "${String(value)}"`);
}

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
  /**
   * X-Ray active tracing of every function (context "tracing": true/false; default off). HTTP and
   * WebSocket APIs have no X-Ray support of their own, so a trace starts at the function.
   */
  tracing?: boolean;
  /** An address the alarm topic mails (context "alarmEmail"); none: subscribe to the topic yourself. */
  alarmEmail?: string;
  /**
   * Turns AWS WAF on with rate-based rules (context "wafRateLimit"): writes to /api/ one address may
   * send in 5 minutes (reads: ten times that). The stack must then be deployed to us-east-1.
   */
  wafRateLimit?: number;
  /** An existing CloudFront web ACL to put in front instead (context "webAclArn"). */
  webAclArn?: string;
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
/**
 * Rewrites extension-less paths (client-side routes) to their prerendered page where the build has
 * one (web/src/app/prerendered-pages.ts, whose list the stack test holds this to), else to the SPA
 * shell; files pass through.
 */
const spaRewriteCode = `function handler(event) {
  var request = event.request;
  var pages = { '/': '/pages/home.html', '/services': '/pages/services.html', '/book': '/pages/book.html', '/track': '/pages/track.html' };
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) {
    request.uri = pages[request.uri] || '/index.html';
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
  if (request.headers.host) request.headers['x-forwarded-host'] = { value: request.headers.host.value };
  else delete request.headers['x-forwarded-host'];
  return request;
}`;

/**
 * API Gateway sees its own host name, not the one the visitor typed: the functions compare a
 * browser's Origin with this copy of it (functions/lib/same-origin.ts). Set here, at the edge, so
 * whatever a client sent under that name is replaced.
 */
const forwardedHostCode = `function handler(event) {
  var request = event.request;
  if (request.headers.host) request.headers['x-forwarded-host'] = { value: request.headers.host.value };
  else delete request.headers['x-forwarded-host'];
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

/**
 * The stage name the local runtime uses (infra/local/stack.ts). A deployed stack may not take it:
 * a template must never look, to a reader or to code, like the developer's laptop.
 */
const LOCAL_STAGE = 'local';

/** The variable that opens the local runtime's own behaviour (functions/lib/env.ts); never deployed. */
const LOCAL_RUNTIME_VARIABLE = 'LOCAL_RUNTIME';

/** Refuses a stage no deployed stack may have, saying what to do instead. */
export function assertDeployableStage(stage: string): void {
  if (stage === LOCAL_STAGE) {
    throw new Error(
      `stage "${LOCAL_STAGE}" is the local runtime's (npm start), not a stage to deploy: ` +
        'choose another name, e.g. -c stage=dev',
    );
  }
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
  /** Where undeliverable timers, failed recurring runs and failed stream records end up. */
  readonly deadLetterQueue: Queue;
  /** The alarms and the topic they notify. */
  readonly monitoring: Monitoring;
  /** Server access logs of the site and uploads buckets. */
  readonly accessLogsBucket: Bucket;
  /** Whether X-Ray active tracing is on (props, else context "tracing"). */
  readonly tracing: boolean;

  constructor(scope: Construct, id: string, props: MarketplaceStackProps) {
    super(scope, id, props);
    const { stage, platformFeePercent, supportEmail, webAssetPath } = props;
    assertDeployableStage(stage);
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
    const tracingSetting = props.tracing ?? this.node.tryGetContext('tracing');
    if (tracingSetting !== undefined && ![true, false, 'true', 'false'].includes(tracingSetting as string | boolean)) {
      throw new Error(`tracing must be true or false, got ${JSON.stringify(tracingSetting)}`);
    }
    this.tracing = tracingSetting === true || tracingSetting === 'true';
    const alarmEmail = props.alarmEmail ?? (this.node.tryGetContext('alarmEmail') as string | undefined);
    if (alarmEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(alarmEmail)) {
      throw new Error(`alarmEmail must be an email address, got ${JSON.stringify(alarmEmail)}`);
    }

    // ---- Dead letters: timers Scheduler could not deliver, failed recurring runs, stream records ----
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // SQS's longest: time to read, fix the cause and replay (README runbook).
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });

    // ---- Server access logs of both buckets (who read or wrote which object, when) ----------------
    this.accessLogsBucket = new Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy,
      autoDeleteObjects: !isProd,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(365) }],
    });

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
    // One JSON line per request; the route template rather than the path, so that capability ids
    // (a booking's /track id) stay out of the log. requestId is the apiRequestId of the function's lines.
    const apiAccessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy });
    const apiStage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: defaultThrottle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(apiAccessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            time: '$context.requestTimeEpoch',
            routeKey: '$context.routeKey',
            status: '$context.status',
            latency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            responseLength: '$context.responseLength',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
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
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'uploads/',
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
    // CloudFormation resolves a dynamic reference only when the function itself changes: after a
    // secret is rotated, deploying with a new context "secretsRevision" changes the functions that
    // read secrets, so they pick the new values up (README runbook).
    const secretsRevision = context('secretsRevision');
    const revision: Record<string, string> = secretsRevision === undefined ? {} : { SECRETS_REVISION: String(secretsRevision) };
    const pushEnvironment = {
      VAPID_PUBLIC_KEY: vapidSecret('publicKey'),
      VAPID_PRIVATE_KEY: vapidSecret('privateKey'),
      VAPID_SUBJECT: `mailto:${supportEmail}`,
      ...revision,
    };
    const stripeEnvironment = (route: RouteDef): Record<string, string> =>
      route.stripe
        ? {
            STRIPE_SECRET_KEY: stripeSecret('secretKey'),
            ...(route.rawBody ? { STRIPE_WEBHOOK_SECRET: stripeSecret('webhookSecret') } : {}),
            ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
            ...revision,
          }
        : {};
    const environment = {
      TABLE_NAME: this.table.tableName,
      UPLOADS_BUCKET: uploadsBucketName,
      STAGE: stage,
      PLATFORM_FEE_PERCENT: String(platformFeePercent),
      SUPPORT_EMAIL: supportEmail,
      // Distances on screen (context "distanceUnit": mi or km; miles by default, as for US dollars).
      ...(distanceUnitOf(context('distanceUnit')) ? { DISTANCE_UNIT: distanceUnitOf(context('distanceUnit'))! } : {}),
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
      // functions/lib/scheduler.ts gives every timer this DeadLetterConfig.
      SCHEDULER_DEAD_LETTER_ARN: this.deadLetterQueue.queueArn,
    };
    // Scheduler sends an undeliverable timer to the queue with the schedule's own role.
    this.deadLetterQueue.grantSendMessages(this.schedulerRole);
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
      uploads?: RouteDef['uploads'];
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
      if (needs.uploads === 'read' || needs.uploads === 'file' || needs.uploads === 'review') uploadsByName.grantRead(role, 'uploads/*');
      if (needs.uploads === 'write') uploadsByName.grantPut(role, 'uploads/*');
      if (needs.uploads === 'file') {
        uploadsByName.grantDelete(role, 'uploads/*');
        uploadsByName.grantPut(role, 'applications/*');
      }
      if (needs.uploads === 'review') uploadsByName.grantRead(role, 'applications/*');
      for (const right of new Set(needs.documents ?? [])) {
        if (right === 'upload') uploadsByName.grantPut(role, 'document-uploads/*');
        if (right === 'read-upload') uploadsByName.grantRead(role, 'document-uploads/*');
        if (right === 'delete-upload') uploadsByName.grantDelete(role, 'document-uploads/*');
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
      // What only the local runtime may do (dev-login, cookies without Secure, loopback push) hangs
      // on this variable, so no deployed function may ever carry it.
      if (LOCAL_RUNTIME_VARIABLE in options.environment) {
        throw new Error(`${name}: ${LOCAL_RUNTIME_VARIABLE} is the local runtime's switch and is never deployed`);
      }
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
        tracing: this.tracing ? Tracing.ACTIVE : undefined,
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

    // The local runtime's own routes (dev-login) are never deployed, whatever the stage.
    const httpRoutes: { route: RouteDef; httpRoute: HttpRoute }[] = [];
    for (const route of deployedRoutes) {
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
      const [httpRoute] = this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${id}Integration`, fn, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        }),
      });
      this.functions[route.name] = fn;
      httpRoutes.push({ route, httpRoute: httpRoute! });
    }

    // Tighter limits on the routes an attacker would flood (infra/throttling.ts); the rest take the
    // stage's default. A route setting must name a route that exists, so the stage waits for them.
    const stageResource = apiStage.node.defaultChild as CfnStage;
    // CloudFormation's own (PascalCase) keys: RouteSettings is a JSON map the L1 passes through as is.
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    for (const { route, httpRoute } of httpRoutes) {
      const { throttleClass, limit } = throttleFor(route.name);
      if (throttleClass === 'default') continue;
      routeSettings[`${route.method} ${route.path}`] = { ThrottlingRateLimit: limit.rateLimit, ThrottlingBurstLimit: limit.burstLimit };
      stageResource.node.addDependency(httpRoute);
    }
    stageResource.routeSettings = routeSettings;

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
          // A record still failing after its retries is described in the dead-letter queue.
          onFailure: new SqsDlq(this.deadLetterQueue),
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
      this.deadLetterQueue.grantSendMessages(role);
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
          deadLetterConfig: { arn: this.deadLetterQueue.queueArn },
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
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'site/',
      removalPolicy,
      autoDeleteObjects: !isProd,
    });

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      comment: 'Serve the prerendered page or index.html for client-side routes (paths without a file extension)',
      code: cloudfront.FunctionCode.fromInline(spaRewriteCode),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    // The headers of shared/security-headers.ts, the same the local runtime sends: the CSP lets the
    // browser post to and show images from this stack's uploads bucket (both of S3's host forms).
    const uploadOrigins = [`https://${uploadsBucketName}.s3.${Aws.REGION}.amazonaws.com`, `https://${uploadsBucketName}.s3.amazonaws.com`];
    const headers = securityHeadersFor({ uploadOrigins });
    const referrerPolicy = Object.values(cloudfront.HeadersReferrerPolicy).find((value) => value === headers['referrer-policy']);
    if (!referrerPolicy) throw new Error(`CloudFront has no Referrer-Policy ${headers['referrer-policy']}`);
    if (headers['x-frame-options'] !== 'DENY') throw new Error(`Unexpected X-Frame-Options ${headers['x-frame-options']}`);
    if (headers['strict-transport-security'] !== strictTransportSecurity || !/includeSubDomains/.test(strictTransportSecurity)) {
      throw new Error(`Unexpected Strict-Transport-Security ${headers['strict-transport-security']}`);
    }
    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `Security headers (${stage}), from shared/security-headers.ts`,
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicyFor({ uploadOrigins }), override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [{ header: 'Permissions-Policy', value: headers['permissions-policy']!, override: true }],
      },
    });

    // apiEndpoint is "https://<id>.execute-api.<region>.amazonaws.com": keep the host part.
    const apiDomain = Fn.select(2, Fn.split('/', this.api.apiEndpoint));

    const webSocketPath = new cloudfront.Function(this, 'WebSocketPath', {
      comment: 'Send /ws to the root of the WebSocket API stage (the origin path)',
      code: cloudfront.FunctionCode.fromInline(webSocketPathCode),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    const forwardedHost = new cloudfront.Function(this, 'ForwardedHost', {
      comment: 'Pass the visitor\'s host name on to the API as X-Forwarded-Host',
      code: cloudfront.FunctionCode.fromInline(forwardedHostCode),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    // AWS WAF at the edge when the operator turns it on: their own web ACL, or one built here.
    const rawWaf = props.wafRateLimit ?? (this.node.tryGetContext('wafRateLimit') as unknown);
    const wafRateLimit = rawWaf === undefined ? undefined : Number(rawWaf);
    if (wafRateLimit !== undefined && (!Number.isInteger(wafRateLimit) || wafRateLimit < 10 || wafRateLimit > 2_000_000_000)) {
      throw new Error(`wafRateLimit must be a whole number of requests per 5 minutes, at least 10, got ${JSON.stringify(rawWaf)}`);
    }
    const webAclArn = props.webAclArn ?? (this.node.tryGetContext('webAclArn') as string | undefined)
      ?? (wafRateLimit !== undefined ? new EdgeFirewall(this, 'EdgeFirewall', { writesPerFiveMinutes: wafRateLimit }).webAclArn : undefined);

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      ...(webAclArn ? { webAclId: webAclArn } : {}),
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
          functionAssociations: [{ function: forwardedHost, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
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

    // ---- Alarms (infra/monitoring.ts) --------------------------------------------------------
    this.monitoring = new Monitoring(this, 'Monitoring', {
      stage,
      removalPolicy,
      httpApiId: this.api.apiId,
      httpStageName: apiStage.stageName,
      functions: [
        ...Object.values(this.functions),
        ...Object.values(this.timerFunctions),
        ...Object.values(this.socketFunctions),
        ...Object.values(this.streamFunctions),
        ...Object.values(this.recurringFunctions),
      ],
      deadLetterQueue: this.deadLetterQueue,
      streamConsumers: this.streamFunctions,
      alarmEmail,
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });

    // ---- cdk-nag: acknowledge, with reasons, what is not fixed (infra/nag.ts) ------------------
    acknowledgeNagFindings(this);
  }
}
