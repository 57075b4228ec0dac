import { marshall } from '@aws-sdk/util-dynamodb';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ArnFormat, Aws, CfnOutput, Duration, Fn, NestedStack, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpRoute, HttpRouteKey, LogGroupLogDestination, PayloadFormatVersion, WebSocketApi, WebSocketStage, type CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration, WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Effect, ManagedPolicy, PolicyStatement, Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, FilterCriteria, MetricType, Runtime, StartingPosition, Tracing } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { CfnSchedule, ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { adoptedTableOf } from './adopted-table';
import { OperatorSecret } from './app-secrets';
import { lambdaBundling } from './bundling';
import { FailedRuns } from './failed-runs';
import { EdgeFirewall } from './waf';
import { OriginSecret } from './origin-secret';
import { SetupCode } from './setup-code';
import { SiteDeployment } from './site-deploy';
import { enableRouteMetrics, Monitoring } from './monitoring';
import { SiteDomain, siteDomainSettings } from './domain';
import { MailSending } from './mail';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { acknowledgeNagFindings } from './nag';
import { FUNCTION_TIMEOUT_SECONDS } from './function-defaults';
import { routesByArea, type RouteArea } from './route-areas';
import { defaultThrottle, throttleFor } from './throttling';
import { contentSecurityPolicyFor, HSTS_MAX_AGE_SECONDS, securityHeadersFor, strictTransportSecurity } from '../shared/security-headers';
import { VIEWER_ADDRESS_HEADER } from '../shared/edge';
import { catalogItems } from '../functions/catalog/data/items';
import { deployedRoutes, recurring, socketRoutes, streamConsumers, timers, type DocumentGrant, type RecurringDef, type RouteDef, type SocketRouteDef, type StreamConsumerDef, type TableAccess, type TimerDef } from '../shared/routes';
import { table as tableDef } from '../shared/table';
import { retentionPeriods } from '../shared/document-categories';
import { functionFile } from '../shared/function-files';

/** The distance unit a context value names, undefined when unset; anything but mi or km is refused. */
function distanceUnitOf(value: unknown): 'mi' | 'km' | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value === 'mi' || value === 'km') return value;
  throw new Error(`context "distanceUnit" must be mi or km, got "${String(value)}"`);
}

export interface MarketplaceStackProps extends StackProps {
  /** Deployment stage, e.g. 'prod' or 'dev'. Only 'prod' keeps its data when the stack goes. */
  stage: string;
  /** The one platform fee rate, in percent of an invoice's total, 0..100. */
  platformFeePercent: number;
  supportEmail: string;
  /** Folder holding the built web app (index.html at its root). */
  webAssetPath: string;
  /**
   * Dispatch tuning; each one absent here comes from the cdk context key of
   * the same name if set there, else the functions use shared/domain/dispatch.ts's default.
   */
  dispatch?: Partial<Record<DispatchSetting, number>>;
  /** A Nominatim-compatible geocoder for the two geocode routes (context "geocoderUrl"); default: the public Nominatim. */
  geocoderUrl?: string;
  /**
   * The Secrets Manager secret holding Stripe's keys as JSON `{ "secretKey": "sk_...", "webhookSecret": "whsec_...",
   * "connectWebhookSecret": "whsec_..." }` (the platform and Connect webhook endpoints' signing secrets)
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
  /**
   * The HTTP API's detailed metrics, per route (context "detailedMetrics": true/false; default off).
   * Billed as custom metrics (six a route, each hour it is called), so off by default: the dashboard's
   * route tables read the access log instead, paid per query when opened. On, they are graphed too.
   */
  detailedMetrics?: boolean;
  /** An address the alarm topic mails (context "alarmEmail"); none: subscribe to the topic yourself. */
  alarmEmail?: string;
  /**
   * Turns AWS WAF on with rate-based rules (context "wafRateLimit"): writes to /api/ one address may
   * send in 5 minutes (reads: ten times that). The stack must then be deployed to us-east-1.
   */
  wafRateLimit?: number;
  /** An existing CloudFront web ACL to put in front instead (context "webAclArn"). */
  webAclArn?: string;
  /**
   * The site's own name (context "domainName", e.g. fixly.app): the distribution answers on it with
   * an ACM certificate, the uploads bucket takes posts from it and publicUrl defaults to it. With
   * `hostedZoneId` (and `hostedZoneName`, default: the domain itself) the stack makes the certificate
   * (the stack must then be in us-east-1) and the A/AAAA records; with `certificateArn` (a us-east-1
   * certificate) it uses that one, in any region. Checked by infra/domain.ts.
   */
  domainName?: string;
  hostedZoneId?: string;
  hostedZoneName?: string;
  certificateArn?: string;
  /**
   * The domain the product's mail is sent from (context "mailDomain"; default: domainName). With
   * one, the stack makes its SES identity (Easy DKIM), a configuration set whose bounces and
   * complaints mark the address, and lets the mail sender alone send (infra/mail.ts). Without one,
   * mail stays in the outbox, unsent.
   */
  mailDomain?: string;
  /**
   * The HTTP routes to deploy: the manifest's `deployedRoutes` unless given. The tests size the
   * stack with more routes than the manifest has today.
   */
  routes?: readonly RouteDef[];
  /** Where a function's code is, by its name: `functions/<name>.ts` unless given. */
  entryOf?: (name: string) => string;
}

/** Context key → function environment variable, with the range functions/common/env.ts accepts. */
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
 * the site's `/ws` becomes `/` and the origin path supplies the stage. The visitor's address goes
 * along as for /api (below).
 */
const webSocketPathCode = `function handler(event) {
  var request = event.request;
  request.uri = '/';
  if (request.headers.host) request.headers['x-forwarded-host'] = { value: request.headers.host.value };
  else delete request.headers['x-forwarded-host'];
  if (event.viewer && event.viewer.ip) request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  else delete request.headers['${VIEWER_ADDRESS_HEADER}'];
  return request;
}`;

/**
 * API Gateway sees its own host name, not the one the visitor typed: the functions compare a
 * browser's Origin with this copy of it (functions/common/same-origin.ts). Set here, at the edge, so
 * whatever a client sent under that name is replaced. Likewise the visitor's address: API Gateway's
 * sourceIp is CloudFront's, so the per-address limits count this one (functions/common/client-address.ts).
 */
const forwardedHostCode = `function handler(event) {
  var request = event.request;
  if (request.headers.host) request.headers['x-forwarded-host'] = { value: request.headers.host.value };
  else delete request.headers['x-forwarded-host'];
  if (event.viewer && event.viewer.ip) request.headers['${VIEWER_ADDRESS_HEADER}'] = { value: event.viewer.ip };
  else delete request.headers['${VIEWER_ADDRESS_HEADER}'];
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
// request path may use (it reads the whole table; repositories Query keys), so IAM refuses it too.
const readActions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const writeActions = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];
const grants: Record<TableAccess, readonly string[]> = {
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

/** The variable that opens the local runtime's own behaviour (functions/common/env.ts); never deployed. */
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
  /** The table the stack creates, or the one context "tableName" adopts after a restore. */
  readonly table: dynamodb.ITable;
  readonly api: HttpApi;
  readonly uploadsBucket: Bucket;
  readonly distribution: cloudfront.Distribution;
  /** The route functions, by route name. */
  readonly functions: Record<string, NodejsFunction> = {};
  /** The nested stack of each route area (infra/route-areas.ts), which holds its routes' functions. */
  readonly routeStacks: ReadonlyMap<RouteArea, NestedStack>;
  /** The functions EventBridge Scheduler invokes, by timer name. */
  readonly timerFunctions: Record<string, NodejsFunction> = {};
  readonly timerGroup: ScheduleGroup;
  /** The WebSocket API of /ws and its functions, by socket route name. */
  readonly webSocketApi: WebSocketApi;
  readonly webSocketStage: WebSocketStage;
  readonly socketFunctions: Record<string, NodejsFunction> = {};
  /** The table stream's consumers (shared/routes.ts streamConsumers), by name. */
  readonly streamFunctions: Record<string, NodejsFunction> = {};
  /** SES: the sending identity, configuration set and feedback topic, when the stack has a mail domain. */
  readonly mail?: MailSending;
  /** Marks the addresses SES reports as bouncing or complaining (functions/mail/record-mail-feedback.ts), with the mail. */
  readonly mailFeedbackFunction?: NodejsFunction;
  /** The functions run on a recurring schedule (shared/routes.ts `recurring`), by name. */
  readonly recurringFunctions: Record<string, NodejsFunction> = {};
  /** The schedule group of the recurring jobs' schedules, which alone their roles trust. */
  readonly recurringGroup: ScheduleGroup;
  /** Where failed timer and recurring runs and failed stream batches are kept for replay (npm run replay). */
  readonly failedRuns: FailedRuns;
  /** The role EventBridge Scheduler assumes to invoke the timer functions. */
  readonly schedulerRole: Role;
  /** Where failed timer and recurring runs end up: undelivered by Scheduler, or failed in Lambda. */
  readonly deadLetterQueue: Queue;
  /** The alarms and the topic they notify. */
  readonly monitoring: Monitoring;
  /** Server access logs of the site and uploads buckets. */
  readonly accessLogsBucket: Bucket;
  /** Whether X-Ray active tracing is on (props, else context "tracing"). */
  readonly tracing: boolean;
  /** Whether the HTTP API publishes detailed (per-route) metrics (props, else context "detailedMetrics"). */
  readonly detailedMetrics: boolean;

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
    const entryOf = props.entryOf ?? ((name: string) => `${repoRoot}${functionFile(name)}`);
    // Kept through updates and stack deletion, but not through the rollback of the deploy that
    // created them: a first deploy that fails would otherwise leave the uploads bucket (a fixed
    // name) behind, and every retry would fail with "already exists". The table is the exception,
    // below.
    const removalPolicy = isProd ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY;
    const tracingSetting = props.tracing ?? this.node.tryGetContext('tracing');
    if (tracingSetting !== undefined && ![true, false, 'true', 'false'].includes(tracingSetting as string | boolean)) {
      throw new Error(`tracing must be true or false, got ${JSON.stringify(tracingSetting)}`);
    }
    this.tracing = tracingSetting === true || tracingSetting === 'true';
    const detailedMetricsSetting = props.detailedMetrics ?? this.node.tryGetContext('detailedMetrics');
    if (detailedMetricsSetting !== undefined && ![true, false, 'true', 'false'].includes(detailedMetricsSetting as string | boolean)) {
      throw new Error(`detailedMetrics must be true or false (true: the HTTP API's per-route metrics, billed as custom metrics), got ${JSON.stringify(detailedMetricsSetting)}`);
    }
    this.detailedMetrics = detailedMetricsSetting === true || detailedMetricsSetting === 'true';
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
    // After a point-in-time restore, the restored table instead (context "tableName" and
    // "tableStreamArn", infra/adopted-table.ts): every function, the catalogue seed and the stream
    // consumers below use whichever this is.
    const adopted = adoptedTableOf((key) => this.node.tryGetContext(key));
    if (adopted) {
      this.table = dynamodb.Table.fromTableAttributes(this, 'AdoptedTable', {
        ...adopted,
        globalIndexes: tableDef.indexes.map((index) => index.name),
      });
    } else {
      const str = dynamodb.AttributeType.STRING;
      const table = new dynamodb.Table(this, 'Table', {
        partitionKey: { name: tableDef.partitionKey, type: str },
        sortKey: { name: tableDef.sortKey, type: str },
        billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        timeToLiveAttribute: tableDef.ttlAttribute,
        encryption: dynamodb.TableEncryption.AWS_MANAGED,
        deletionProtection: isProd,
        // Plain Retain, unlike the rest: DynamoDB refuses to delete a deletion-protected table, so
        // the rollback of a failed first deploy could not remove it and would itself fail. Its name
        // is generated, so the empty table such a rollback leaves never blocks the retry.
        removalPolicy: isProd ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
        // New images only: the stream consumers (shared/routes.ts streamConsumers) read what was written.
        stream: dynamodb.StreamViewType.NEW_IMAGE,
      });
      for (const index of tableDef.indexes) {
        table.addGlobalSecondaryIndex({
          indexName: index.name,
          partitionKey: { name: index.partitionKey, type: str },
          sortKey: { name: index.sortKey, type: str },
          projectionType: dynamodb.ProjectionType.ALL,
        });
      }
      this.table = table;
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
     * Publishing (functions/realtime/realtime.ts): the management endpoint and the right to post to, read
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
        // Copies of deleted compliance documents, kept for their category's retention period.
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
    // The secrets the operator creates (infra/app-secrets.ts): the functions that need one are told
    // its id and read it at run time (functions/common/secrets.ts), so no function's configuration, the
    // template or cdk.out holds a value, and a rotated value is used within minutes without a deploy.
    // Stripe's keys reach only the functions that call Stripe; the VAPID keys only what sends or
    // hands out push (the push routes and the stream consumer that delivers urgent notifications).
    const stripeSecretName = props.stripeSecretName ?? (context('stripeSecretName') as string | undefined) ?? `marketplace/${stage}/stripe`;
    // The site's own name, if the operator gave one (infra/domain.ts checks it here, before anything is built).
    const siteDomain = siteDomainSettings(
      {
        domainName: props.domainName ?? context('domainName'),
        hostedZoneId: props.hostedZoneId ?? context('hostedZoneId'),
        hostedZoneName: props.hostedZoneName ?? context('hostedZoneName'),
        certificateArn: props.certificateArn ?? context('certificateArn'),
      },
      this.region,
    );
    const publicUrl = props.publicUrl ?? (context('publicUrl') as string | undefined) ?? (siteDomain ? `https://${siteDomain.domainName}` : undefined);
    if (publicUrl !== undefined && !/^https:\/\/[^\s/]+$/.test(publicUrl)) {
      throw new Error(`publicUrl must be an https origin without a path, got ${JSON.stringify(publicUrl)}`);
    }
    const stripeSecret = new OperatorSecret(this, 'StripeSecret', { name: 'stripe', secretName: stripeSecretName });
    const vapidSecretName = props.vapidSecretName ?? (context('vapidSecretName') as string | undefined) ?? `marketplace/${stage}/vapid`;
    const vapidSecret = new OperatorSecret(this, 'VapidSecret', { name: 'vapid', secretName: vapidSecretName });
    // The right to read each is given below, once the functions exist (grantRead, per function).
    const pushEnvironment = {
      ...vapidSecret.environment,
      VAPID_SUBJECT: `mailto:${supportEmail}`,
    };
    const stripeEnvironment = (route: RouteDef): Record<string, string> =>
      route.stripe
        ? {
            ...stripeSecret.environment,
            ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}),
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
    // (functions/common/scheduler.ts), so the prefix must be known before the functions exist.
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
      // functions/common/scheduler.ts gives every timer this DeadLetterConfig.
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
      /** Invoked asynchronously: may record a failed run in the dead-letter queue (infra/failed-runs.ts). */
      failedRuns?: boolean;
      own?: string;
    }
    const roles = new Map<string, Role>();
    const roleFor = (needs: Needs): Role => {
      const tableAccess = typeof needs.table === 'string' ? needs.table : needs.table.access;
      const leadingKeys = typeof needs.table === 'string' ? undefined : [...needs.table.partitionKeys];
      const onIndexes = typeof needs.table !== 'string' && Boolean(needs.table.indexes);
      const parts = [
        `table-${tableAccess}`,
        ...(leadingKeys ? [`keys ${leadingKeys.join(' ')}`] : []),
        ...(onIndexes ? ['indexes'] : []),
        ...(needs.uploads ? [`uploads-${needs.uploads}`] : []),
        ...[...new Set(needs.documents ?? [])].sort().map((d) => `documents-${d}`),
        ...(needs.scheduler ? ['scheduler'] : []),
        ...(needs.realtime ? ['realtime'] : []),
        ...(needs.failedRuns ? ['failed-runs'] : []),
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
      const actions = grants[tableAccess];
      if (actions.length && leadingKeys) {
        // Only the items whose partition key matches (the geocode cache's, for the public geocode
        // routes): dynamodb:LeadingKeys is every partition key the request touches, an index's own
        // partition key for a Query of that index (the mail sweeper's MAILQ#).
        role.addToPrincipalPolicy(
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: [...actions],
            resources: onIndexes ? [this.table.tableArn, `${this.table.tableArn}/index/*`] : [this.table.tableArn],
            conditions: {
              'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeys },
              // ForAllValues also holds for a request that names no key; every action here names one.
              Null: { 'dynamodb:LeadingKeys': 'false' },
            },
          }),
        );
      } else if (actions.length) this.table.grant(role, ...actions);
      // Reading objects under a prefix, and listing only that prefix (which S3 also asks of a read,
      // to answer 404 rather than 403 for a key that is not there). Bucket.grantRead would list and
      // read the metadata of the whole bucket.
      const readPrefixes = new Set<string>();
      const grantReadUnder = (prefix: string) => {
        role.addToPrincipalPolicy(
          new PolicyStatement({ effect: Effect.ALLOW, actions: ['s3:GetObject*'], resources: [uploadsByName.arnForObjects(`${prefix}*`)] }),
        );
        readPrefixes.add(prefix);
      };
      if (needs.uploads === 'read' || needs.uploads === 'file' || needs.uploads === 'review') grantReadUnder('uploads/');
      if (needs.uploads === 'write') uploadsByName.grantPut(role, 'uploads/*');
      if (needs.uploads === 'file') {
        uploadsByName.grantDelete(role, 'uploads/*');
        uploadsByName.grantPut(role, 'applications/*');
      }
      if (needs.uploads === 'review') grantReadUnder('applications/');
      for (const right of new Set(needs.documents ?? [])) {
        if (right === 'upload') uploadsByName.grantPut(role, 'document-uploads/*');
        if (right === 'read-upload') grantReadUnder('document-uploads/');
        if (right === 'delete-upload') uploadsByName.grantDelete(role, 'document-uploads/*');
        if (right === 'read') grantReadUnder('documents/');
        if (right === 'write') uploadsByName.grantPut(role, 'documents/*');
        if (right === 'delete') uploadsByName.grantDelete(role, 'documents/*');
        if (right === 'retain') uploadsByName.grantPut(role, 'retained/*');
      }
      if (readPrefixes.size) {
        role.addToPrincipalPolicy(
          new PolicyStatement({
            effect: Effect.ALLOW,
            actions: ['s3:ListBucket'],
            resources: [uploadsByName.bucketArn],
            conditions: { StringLike: { 's3:prefix': [...readPrefixes].sort().map((prefix) => `${prefix}*`) } },
          }),
        );
      }
      if (needs.scheduler) grantScheduling(role);
      if (needs.realtime) grantRealtime(role);
      if (needs.failedRuns) this.deadLetterQueue.grantSendMessages(role);
      roles.set(key, role);
      return role;
    };

    /** Every function, route, timer or socket, is built and configured the same way. */
    const lambda = (
      id: string,
      name: string,
      options: {
        description: string;
        environment: Record<string, string>;
        role: IRole;
        functionName?: string;
        timeout?: Duration;
        memorySize?: number;
        /** The stack the function lives in: this one, or a route area's nested stack. */
        scope?: Construct;
      },
    ) => {
      // What only the local runtime may do (dev-login, cookies without Secure, loopback push) hangs
      // on this variable, so no deployed function may ever carry it.
      if (LOCAL_RUNTIME_VARIABLE in options.environment) {
        throw new Error(`${name}: ${LOCAL_RUNTIME_VARIABLE} is the local runtime's switch and is never deployed`);
      }
      return new NodejsFunction(options.scope ?? this, `${id}Fn`, {
        description: options.description,
        functionName: options.functionName,
        role: options.role,
        entry: entryOf(name),
        handler: 'handler',
        projectRoot: repoRoot,
        depsLockFilePath: `${repoRoot}package-lock.json`,
        runtime: Runtime.NODEJS_22_X,
        architecture: Architecture.ARM_64,
        memorySize: options.memorySize ?? 256,
        timeout: options.timeout ?? Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
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

    // The local runtime's own routes (dev-login) are never deployed, whatever the stage. Each area's
    // routes live in a nested stack of their own (infra/route-areas.ts): at four resources a route,
    // one template would pass CloudFormation's 500 at about 110 routes.
    const httpRoutes: { route: RouteDef; httpRoute: HttpRoute }[] = [];
    const addRoute = (areaStack: NestedStack, route: RouteDef) => {
      const id = pascal(route.name);
      const fn = lambda(id, route.name, {
        scope: areaStack,
        description: `${route.method} ${route.path} (${stage})`,
        // Lambda's CPU grows with memory: a password hash needs most of a vCPU (shared/routes.ts).
        memorySize: route.memoryMb,
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
      const httpRoute = new HttpRoute(areaStack, `${id}Route`, {
        httpApi: this.api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${id}Integration`, fn, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        }),
      });
      this.functions[route.name] = fn;
      httpRoutes.push({ route, httpRoute });
    };
    const routeStacks = new Map<RouteArea, NestedStack>();
    for (const [area, areaRoutes] of routesByArea(props.routes ?? deployedRoutes)) {
      const areaStack = new NestedStack(this, `${pascal(area)}Routes`, { description: `Marketplace ${area} routes (${stage})` });
      routeStacks.set(area, areaStack);
      for (const route of areaRoutes) addRoute(areaStack, route);
    }
    this.routeStacks = routeStacks;

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

    // What the timers, the recurring jobs and the stream consumers fail to do is kept for replay
    // (infra/failed-runs.ts, README runbook).
    this.failedRuns = new FailedRuns(this, 'FailedRuns', {
      queue: this.deadLetterQueue,
      accessLogsBucket: this.accessLogsBucket,
      removalPolicy,
      autoDeleteObjects: !isProd,
    });

    // Timers tell the customer and the worker what they changed (an offer expired, a job reassigned).
    // Scheduler invokes them asynchronously: a run that throws is retried by Lambda, then recorded
    // with its input in the dead-letter queue.
    for (const timer of timers as readonly TimerDef[]) {
      const fn = lambda(`${pascal(timer.name)}Timer`, timer.name, {
        description: `Timer ${timer.name}, invoked by EventBridge Scheduler (${stage})`,
        functionName: timerFunctionName(timer),
        environment: { ...environment, ...(timer.scheduler ? schedulingEnvironment : {}), ...realtimeEnvironment },
        role: roleFor({ table: timer.table, scheduler: timer.scheduler, realtime: true, failedRuns: true }),
      });
      this.failedRuns.keepFailedRuns(fn);
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
    const failedBatchMappings: Record<string, string> = {};
    // Mail (infra/mail.ts): the sending domain's SES identity and configuration set, when there is one.
    const mailDomain = props.mailDomain ?? (context('mailDomain') as string | undefined) ?? siteDomain?.domainName;
    this.mail = mailDomain
      ? new MailSending(this, 'Mail', { domainName: mailDomain, configurationSetName: `${this.stackName}-mail`, ...(siteDomain?.hostedZone ? { hostedZone: siteDomain.hostedZone } : {}) })
      : undefined;
    for (const consumer of streamConsumers as readonly StreamConsumerDef[]) {
      const fn = lambda(`${pascal(consumer.name)}Stream`, consumer.name, {
        description: `Table stream consumer ${consumer.name} (${stage})`,
        environment: { ...environment, ...(consumer.push ? pushEnvironment : {}), ...(consumer.mail && this.mail ? this.mail.environment : {}) },
        role: roleFor({ table: consumer.table, own: consumer.name }),
      });
      // The one function that sends mail may send it, from our address, through our configuration set.
      if (consumer.mail) this.mail?.grantSend(fn);
      const source = new DynamoEventSource(this.table, {
        startingPosition: StartingPosition.LATEST,
        batchSize: 25,
        bisectBatchOnError: true,
        retryAttempts: 2,
        reportBatchItemFailures: true,
        filters: [FilterCriteria.filter(consumer.filter)],
        // A batch still failing after its retries is written whole (the records, not pointers into
        // a stream that keeps them 24 hours) to the failed-batch bucket, to replay at any time.
        onFailure: this.failedRuns.batchDestination(),
        // Counts of what reached the destination or was dropped, for the alarms (infra/monitoring.ts).
        metricsConfig: { metrics: [MetricType.EVENT_COUNT] },
      });
      fn.addEventSource(source);
      failedBatchMappings[consumer.name] = source.eventSourceMappingId;
      this.streamFunctions[consumer.name] = fn;
    }
    new CfnOutput(this, 'FailedBatchesBucketName', { value: this.failedRuns.batchesBucket.bucketName });
    if (this.mail) {
      this.mailFeedbackFunction = lambda('RecordMailFeedback', 'record-mail-feedback', {
        description: `Marks addresses SES reports as bouncing or complaining (${stage})`,
        environment,
        // Only the suppression marks.
        role: roleFor({ table: { access: 'write', partitionKeys: ['MAIL_SUPPRESSED#*'] }, failedRuns: true, own: 'record-mail-feedback' }),
      });
      // SNS invokes it asynchronously: a report it could not record is kept for replay, not lost.
      this.failedRuns.keepFailedRuns(this.mailFeedbackFunction);
      this.mail.feedbackTopic.addSubscription(new LambdaSubscription(this.mailFeedbackFunction));
    }

    // Recurring jobs (shared/routes.ts `recurring`): an EventBridge Scheduler cron schedule each, with
    // a role that may invoke that one function; the schedule's input is its sample event. Scheduler
    // presents the schedule's group, not the schedule, as aws:SourceArn when it assumes a role, so
    // the recurring schedules have a group of their own and each role trusts that group alone (no
    // function may create schedules in it: the timer rights are on the timer group).
    this.recurringGroup = new ScheduleGroup(this, 'RecurringGroup', {
      scheduleGroupName: `${this.stackName}-recurring`,
      // It holds only this stack's own schedules: nothing to keep.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    for (const job of recurring as readonly RecurringDef[]) {
      const fn = lambda(`${pascal(job.name)}Recurring`, job.name, {
        description: `${job.description} (${stage})`,
        functionName: `${this.stackName}-${job.name}`,
        environment: { ...environment, ...(job.realtime ? realtimeEnvironment : {}), ...(job.mail && this.mail ? this.mail.environment : {}) },
        role: roleFor({ table: job.table, realtime: job.realtime, documents: job.documents, failedRuns: true, ...(job.mail ? { own: job.name } : {}) }),
        timeout: Duration.minutes(5),
      });
      // The mail sweeper sends what the stream did not, with the same narrow right as send-mail.
      if (job.mail) this.mail?.grantSend(fn);
      this.failedRuns.keepFailedRuns(fn);
      const scheduleName = `${this.stackName}-${job.name}`;
      const role = new Role(this, `${pascal(job.name)}ScheduleRole`, {
        description: `EventBridge Scheduler runs ${job.name} (${stage})`,
        assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
          conditions: {
            StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
            ArnLike: { 'aws:SourceArn': this.recurringGroup.scheduleGroupArn },
          },
        }),
      });
      role.addToPolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }));
      this.deadLetterQueue.grantSendMessages(role);
      const schedule = new CfnSchedule(this, `${pascal(job.name)}Schedule`, {
        name: scheduleName,
        groupName: this.recurringGroup.scheduleGroupName,
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
      // The group is named by a literal, not a reference: the schedule must wait for it explicitly.
      schedule.node.addDependency(this.recurringGroup);
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

    // ---- The operator's secrets (infra/app-secrets.ts): each function told a secret's id above may
    // read that secret, and no other function may (roles are shared, so the right names the function).
    const routeDefs = new Map((props.routes ?? deployedRoutes).map((route) => [route.name, route]));
    for (const [name, fn] of Object.entries(this.functions)) {
      if (routeDefs.get(name)?.stripe) stripeSecret.grantRead(fn);
      if (routeDefs.get(name)?.push) vapidSecret.grantRead(fn);
    }
    for (const consumer of streamConsumers as readonly StreamConsumerDef[]) {
      const fn = this.streamFunctions[consumer.name];
      if (fn && consumer.push) vapidSecret.grantRead(fn);
    }

    // ---- The edge's secrets (infra/origin-secret.ts, infra/setup-code.ts) ----------------------
    // CloudFront proves every API request came through it with the origin secret; the functions that
    // answer through it (the HTTP routes, the WebSocket handshake) are told its id and may read it.
    // The owner setup code goes to setup-admin alone.
    const originSecretRevision = context('originSecretRevision');
    const originSecret = new OriginSecret(this, 'OriginSecret', {
      stage,
      ...(originSecretRevision === undefined ? {} : { revision: String(originSecretRevision) }),
    });
    originSecret.giveTo([...Object.values(this.functions), ...(this.socketFunctions['connect-socket'] ? [this.socketFunctions['connect-socket']] : [])]);
    const setupCode = new SetupCode(this, 'SetupCode', { stage });
    if (this.functions['setup-admin']) setupCode.giveTo(this.functions['setup-admin']);

    // CloudFront's standard logs (one line per viewer request, the edge's own status and timing).
    // They are written with S3 ACLs, so this bucket alone has them enabled (the bucket owner still
    // owns every object). Kept like the API's access log; CloudFront cannot deliver to buckets in a
    // few opt-in regions (af-south-1, ap-east-1, eu-south-1, me-south-1).
    const cloudFrontLogs = new Bucket(this, 'CloudFrontLogs', {
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'cloudfront-logs/',
      removalPolicy,
      autoDeleteObjects: !isProd,
      lifecycleRules: [{ id: 'expire-cloudfront-logs', expiration: Duration.days(90) }],
    });
    // The site's own name and its certificate (infra/domain.ts), when the operator gave one.
    const domain = siteDomain ? new SiteDomain(this, 'SiteDomain', siteDomain) : undefined;

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      ...(webAclArn ? { webAclId: webAclArn } : {}),
      ...(domain
        ? { domainNames: [domain.domainName], certificate: domain.certificate, minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 }
        : {}),
      enableLogging: true,
      logBucket: cloudFrontLogs,
      logFilePrefix: 'cloudfront/',
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
          origin: new HttpOrigin(apiDomain, { protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY, customHeaders: originSecret.originHeaders }),
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
            customHeaders: originSecret.originHeaders,
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

    // The site's name points at the distribution (A and AAAA aliases), when the stack has its zone.
    domain?.pointAt(this.distribution);
    // The site's address: its own name when it has one, else CloudFront's.
    const siteOrigin = domain ? `https://${domain.domainName}` : `https://${this.distribution.distributionDomainName}`;
    // The links in mail open the site: its public address, known only now when it is CloudFront's.
    for (const consumer of streamConsumers as readonly StreamConsumerDef[]) {
      if (consumer.mail) this.streamFunctions[consumer.name]?.addEnvironment('SITE_URL', publicUrl ?? siteOrigin);
    }
    for (const job of recurring as readonly RecurringDef[]) {
      if (job.mail) this.recurringFunctions[job.name]?.addEnvironment('SITE_URL', publicUrl ?? siteOrigin);
    }

    // Browsers post uploads straight to the bucket from the site's origin: CloudFront's name (it
    // still serves the site), and the site's own name or publicUrl when there is one.
    this.uploadsBucket.addCorsRule({
      allowedOrigins: [
        ...new Set([`https://${this.distribution.distributionDomainName}`, siteOrigin, ...(publicUrl ? [publicUrl] : [])]),
      ],
      allowedMethods: [HttpMethods.POST, HttpMethods.GET],
      allowedHeaders: ['*'],
      maxAge: 3000,
    });

    // Hashed assets first, kept across releases; then the HTML and other unhashed files (infra/site-deploy.ts).
    new SiteDeployment(this, 'DeploySite', { webAssetPath, bucket: siteBucket, distribution: this.distribution });

    new CfnOutput(this, 'SiteUrl', { value: siteOrigin });
    // Where a name whose DNS is elsewhere points (a CNAME, or an alias at the apex).
    new CfnOutput(this, 'DistributionDomainName', { value: this.distribution.distributionDomainName });
    new CfnOutput(this, 'ApiUrl', { value: apiStage.url });
    new CfnOutput(this, 'WebSocketUrl', { value: `${siteOrigin.replace(/^https:/, 'wss:')}/ws` });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'TimerGroupName', { value: timerGroupName });

    // ---- Alarms and dashboards (infra/monitoring.ts, infra/dashboard.ts) ------------------------
    // Route tables come from the access log; the HTTP API's own route metrics, billed as custom
    // metrics, only when asked for (context "detailedMetrics").
    if (this.detailedMetrics) enableRouteMetrics(apiStage.node.defaultChild as CfnStage);
    this.monitoring = new Monitoring(this, 'Monitoring', {
      stage,
      removalPolicy,
      httpApiId: this.api.apiId,
      httpStageName: apiStage.stageName,
      routesByArea: routesByArea(props.routes ?? deployedRoutes),
      routeFunctions: this.functions,
      timerFunctions: this.timerFunctions,
      socketFunctions: this.socketFunctions,
      recurringFunctions: this.recurringFunctions,
      ...(this.mailFeedbackFunction ? { topicSubscribers: { 'record-mail-feedback': this.mailFeedbackFunction } } : {}),
      deadLetterQueue: this.deadLetterQueue,
      streamConsumers: this.streamFunctions,
      tableName: this.table.tableName,
      webSocketApiId: this.webSocketApi.apiId,
      webSocketStageName,
      // The timers' own group, and whichever groups the recurring schedules are in ('default' unless named).
      scheduleGroups: [
        ...new Set([
          timerGroupName,
          ...this.node.findAll().flatMap((c) => (c instanceof CfnSchedule ? [c.groupName ?? 'default'] : [])),
        ]),
      ],
      apiAccessLogs,
      detailedMetrics: this.detailedMetrics,
      functionLogs: logGroup,
      distributionId: this.distribution.distributionId,
      alarmEmail,
      failedRuns: { asyncFunctions: this.failedRuns.asyncFunctions, streamMappings: failedBatchMappings },
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });

    // ---- cdk-nag: acknowledge, with reasons, what is not fixed (infra/nag.ts) ------------------
    acknowledgeNagFindings(this);
  }
}
