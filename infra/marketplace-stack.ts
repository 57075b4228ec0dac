import { CfnOutput, NestedStack, Stack } from 'aws-cdk-lib';
import type { HttpApi, WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Role } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { FailedRuns } from './failed-runs';
import type { MailSending } from './mail';
import { Monitoring } from './monitoring';
import { acknowledgeNagFindings } from './nag';
import { routesByArea, type RouteArea } from './route-areas';
import { accessLogsBucket } from './parts/access-logs';
import { DataTable } from './parts/data-table';
import { FailedWork } from './parts/failed-work';
import { Functions } from './parts/functions';
import { HttpEndpoint } from './parts/http-api';
import { Mail } from './parts/mail';
import { Realtime } from './parts/realtime';
import { RecurringJobs } from './parts/recurring';
import { Routes } from './parts/routes';
import { Secrets } from './parts/secrets';
import { settingsOf, type MarketplaceStackProps } from './parts/settings';
import { Site } from './parts/site';
import { StreamConsumers } from './parts/stream-consumers';
import { Timers } from './parts/timers';
import { Uploads } from './parts/uploads';

export { assertDeployableStage, type MarketplaceStackProps } from './parts/settings';

/**
 * The marketplace: one stack made of parts (infra/parts/, one concern each), wired here in the
 * order they depend on one another. Every part creates its resources in this stack (or a route
 * area's nested stack) under the ids they have always had: a resource's logical id comes from its
 * construct path, and a new one on a deployed stack would replace it (the table, the buckets).
 */
export class MarketplaceStack extends Stack {
  /** The table the stack creates, or the one context "tableName" adopts after a restore. */
  readonly table: dynamodb.ITable;
  readonly api: HttpApi;
  readonly uploadsBucket: Bucket;
  readonly distribution: cloudfront.Distribution;
  /** The route functions, by route name. */
  readonly functions: Record<string, NodejsFunction>;
  /** The nested stack of each route area (infra/route-areas.ts), which holds its routes' functions. */
  readonly routeStacks: ReadonlyMap<RouteArea, NestedStack>;
  /** The functions EventBridge Scheduler invokes, by timer name. */
  readonly timerFunctions: Record<string, NodejsFunction>;
  readonly timerGroup: ScheduleGroup;
  /** The WebSocket API of /ws and its functions, by socket route name. */
  readonly webSocketApi: WebSocketApi;
  readonly webSocketStage: WebSocketStage;
  readonly socketFunctions: Record<string, NodejsFunction>;
  /** The table stream's consumers (shared/routes.ts streamConsumers), by name. */
  readonly streamFunctions: Record<string, NodejsFunction>;
  /** SES: the sending identity, configuration set and feedback topic, when the stack has a mail domain. */
  readonly mail?: MailSending;
  /** Marks the addresses SES reports as bouncing or complaining (functions/mail/record-mail-feedback.ts), with the mail. */
  readonly mailFeedbackFunction?: NodejsFunction;
  /** The functions run on a recurring schedule (shared/routes.ts `recurring`), by name. */
  readonly recurringFunctions: Record<string, NodejsFunction>;
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
    const settings = settingsOf(this, props);
    const { stage, removalPolicy, publicUrl } = settings;
    this.tracing = settings.tracing;
    this.detailedMetrics = settings.detailedMetrics;

    // ---- Storage and the two APIs, which the functions are told about --------------------------
    this.accessLogsBucket = accessLogsBucket(this, settings);
    const data = new DataTable(this, settings);
    this.table = data.table;
    const http = new HttpEndpoint(this, settings);
    this.api = http.api;
    const realtime = new Realtime(this, settings);
    this.webSocketApi = realtime.api;
    this.webSocketStage = realtime.stage;
    const uploads = new Uploads(this, settings, this.accessLogsBucket);
    this.uploadsBucket = uploads.bucket;
    // After the uploads bucket: the failed-batch bucket logs beside it, and the access-log bucket's
    // policy lists its writers in the order they were made.
    const failedWork = new FailedWork(this, settings, this.accessLogsBucket);
    this.deadLetterQueue = failedWork.deadLetterQueue;
    this.failedRuns = failedWork.runs;
    const secrets = new Secrets(this, settings);
    const timers = new Timers(this, settings, this.deadLetterQueue);
    this.timerGroup = timers.group;
    this.schedulerRole = timers.schedulerRole;

    // ---- The functions, one per manifest entry -----------------------------------------------
    // Roles are shared, and a role's policy lists its statements in the order they were granted: the
    // parts below run in this order so that the deployed policies stay as they are.
    const functions = new Functions(this, settings, {
      table: data,
      uploads,
      grantScheduling: (role) => timers.grantScheduling(role),
      grantRealtime: (role) => realtime.grantPublish(role),
      grantFailedRuns: (role) => this.deadLetterQueue.grantSendMessages(role),
    });
    const routes = new Routes(this, settings, { functions, http, timers, realtime, secrets });
    this.functions = routes.functions;
    this.routeStacks = routes.stacks;
    http.throttle(routes.httpRoutes);
    timers.addFunctions(functions, this.failedRuns, realtime.environment);
    this.timerFunctions = timers.functions;
    realtime.addSocketRoutes(functions);
    this.socketFunctions = realtime.functions;
    const mail = new Mail(this, settings, functions, this.failedRuns);
    this.mail = mail.sending;
    this.mailFeedbackFunction = mail.feedbackFunction;
    const streams = new StreamConsumers(settings, { functions, table: this.table, failedRuns: this.failedRuns, mail, secrets });
    this.streamFunctions = streams.functions;
    const recurring = new RecurringJobs(this, settings, { functions, failedRuns: this.failedRuns, deadLetterQueue: this.deadLetterQueue, realtime, mail });
    this.recurringFunctions = recurring.functions;
    this.recurringGroup = recurring.group;
    secrets.grantOperatorSecrets(settings.routes, this.functions, this.streamFunctions);
    const connectSocket = this.socketFunctions['connect-socket'];
    const originSecret = secrets.addEdgeSecrets([...Object.values(this.functions), ...(connectSocket ? [connectSocket] : [])], this.functions['setup-admin']);

    // ---- The site and the edge in front of everything ---------------------------------------
    const site = new Site(this, settings, {
      accessLogsBucket: this.accessLogsBucket,
      apiDomain: http.domain,
      webSocketDomain: realtime.domain,
      webSocketStageName: realtime.stageName,
      originSecret,
      uploadOrigins: uploads.origins,
    });
    this.distribution = site.distribution;
    streams.tellSiteUrl(publicUrl ?? site.origin);
    recurring.tellSiteUrl(publicUrl ?? site.origin);
    uploads.allowBrowsersFrom([`https://${this.distribution.distributionDomainName}`, site.origin, ...(publicUrl ? [publicUrl] : [])]);

    new CfnOutput(this, 'FailedBatchesBucketName', { value: this.failedRuns.batchesBucket.bucketName });
    new CfnOutput(this, 'SiteUrl', { value: site.origin });
    // Where a name whose DNS is elsewhere points (a CNAME, or an alias at the apex).
    new CfnOutput(this, 'DistributionDomainName', { value: this.distribution.distributionDomainName });
    new CfnOutput(this, 'ApiUrl', { value: http.stage.url });
    new CfnOutput(this, 'WebSocketUrl', { value: `${site.origin.replace(/^https:/, 'wss:')}/ws` });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'TimerGroupName', { value: timers.groupName });

    // ---- Alarms and dashboards (infra/monitoring.ts, infra/dashboard.ts) ------------------------
    if (this.detailedMetrics) http.enableDetailedMetrics();
    this.monitoring = new Monitoring(this, 'Monitoring', {
      stage,
      removalPolicy,
      httpApiId: this.api.apiId,
      httpStageName: http.stage.stageName,
      routesByArea: routesByArea(settings.routes),
      routeFunctions: this.functions,
      timerFunctions: this.timerFunctions,
      socketFunctions: this.socketFunctions,
      recurringFunctions: this.recurringFunctions,
      ...(this.mailFeedbackFunction ? { topicSubscribers: { 'record-mail-feedback': this.mailFeedbackFunction } } : {}),
      deadLetterQueue: this.deadLetterQueue,
      streamConsumers: this.streamFunctions,
      tableName: this.table.tableName,
      webSocketApiId: this.webSocketApi.apiId,
      webSocketStageName: realtime.stageName,
      // The timers' own group, and whichever groups the recurring schedules are in ('default' unless named).
      scheduleGroups: [...new Set([timers.groupName, ...recurring.schedules.map((schedule) => schedule.groupName ?? 'default')])],
      apiAccessLogs: http.accessLogs,
      detailedMetrics: this.detailedMetrics,
      functionLogs: functions.logGroup,
      distributionId: this.distribution.distributionId,
      alarmEmail: settings.alarmEmail,
      failedRuns: { asyncFunctions: this.failedRuns.asyncFunctions, streamMappings: streams.failedBatchMappings },
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl });

    // ---- cdk-nag: acknowledge, with reasons, what is not fixed (infra/nag.ts) ------------------
    acknowledgeNagFindings(this);
  }
}
