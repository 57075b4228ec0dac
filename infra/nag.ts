import { Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag's AwsSolutions pack: infra/app.ts runs it on every synth (a finding nobody
 * acknowledged stops `cdk synth` and `cdk deploy`), and infra/parts/guards.test.ts asserts the
 * prod stack has none left.
 *
 * What could be fixed is fixed in the stack (access logs for the HTTP API and both buckets, an
 * encrypted TLS-only dead-letter queue and alarm topic, a KMS key with rotation). What remains is
 * acknowledged here, each rule with the reason a reviewer can check, and only where `where` says
 * (a construct path pattern). cdk-nag 3 matches acknowledgments by exact finding id
 * (`AwsSolutions-IAM5[Resource::…/uploads/*]`) and has no pattern form yet, so `finding` is a
 * pattern over those ids, the way cdk-nag 2's `appliesTo: [{ regex }]` was: a new finding that no
 * pattern covers still fails the test and the synth.
 */
export interface NagAcknowledgment {
  /** The finding id(s): `AwsSolutions-XXX` or `AwsSolutions-XXX[finding]`. */
  finding: RegExp;
  /** The construct paths (below the stack) it applies to; absent: anywhere in the stack. */
  where?: RegExp;
  reason: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** An IAM5 finding on a resource ARN that ends in the given pattern. */
const iam5Resource = (tail: string) => new RegExp(`^AwsSolutions-IAM5\\[Resource::.*${tail}\\]$`);
const iam5Action = (...actions: string[]) => new RegExp(`^AwsSolutions-IAM5\\[Action::(${actions.map(escape).join('|')})\\]$`);

/** Constructs aws-cdk-lib adds for us (custom resource handlers), whose code and roles it owns. */
const cdkProvided = /^(AWS679f53fac002430cb0da5b7982bd2287|Custom::CDKBucketDeployment[0-9A-Fa-f]+|Custom::S3AutoDeleteObjectsCustomResourceProvider)/;

export const nagAcknowledgments: readonly NagAcknowledgment[] = [
  // ---- IAM ----------------------------------------------------------------------------------
  {
    finding: /^AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole\]$/,
    reason:
      "AWSLambdaBasicExecutionRole grants only logs:CreateLogGroup, CreateLogStream and PutLogEvents, the rights every function needs to write its logs; it is AWS's maintained minimum for that and grants no data access. Every data right is an inline, per-permission-set policy (roleFor, infra/parts/functions.ts).",
  },
  {
    finding: iam5Resource('<Table[0-9A-F]+\\.Arn>/index/\\*'),
    where: /^FunctionRole/,
    reason:
      "Queries of the table's own global secondary indexes (shared/table.ts): IAM names an index only as <table ARN>/index/<name>, and the functions read several of the table's indexes; the wildcard reaches no other table.",
  },
  {
    finding: iam5Resource(':schedule/Marketplace-[a-z0-9-]+-timers/\\*'),
    where: /^FunctionRole/,
    reason:
      "One-time timers (offer expiry, arrival grace) are created and deleted at runtime under names made from job and worker ids (offer-<job>-<worker>), so the schedule ARN can only be bounded to this stack's own schedule group.",
  },
  {
    finding: iam5Resource('<WebSocketApi[0-9A-F]+>/[a-z0-9-]+/(POST|GET|DELETE)/@connections/\\*'),
    where: /^FunctionRole/,
    reason:
      'Posting to /ws connections: connection ids exist only at runtime, so the right is bounded to this WebSocket API, its one stage and the three @connections methods.',
  },
  {
    finding: iam5Resource('s3:::marketplace-uploads-[a-z0-9-]+-<AWS::AccountId>-<AWS::Region>/(uploads|applications|document-uploads|documents|retained)/\\*'),
    where: /^FunctionRole/,
    reason:
      'Object keys under uploads/, applications/<application>/, document-uploads/<worker>/, documents/<worker>/ and retained/<n>y/ are generated per upload at runtime; each role is bounded to the prefixes its routes use (shared/routes.ts uploads/documents grants) in the uploads bucket only.',
  },
  {
    finding: iam5Action('s3:GetObject*', 's3:Abort*', 's3:DeleteObject*'),
    where: /^FunctionRole/,
    reason:
      "aws-cdk-lib's object action groups (GetObject with its version/ACL/tagging reads, as Bucket.grantRead gives them; Bucket.grantPut's AbortMultipartUpload; Bucket.grantDelete), on the role's own key prefixes only. Listing, which a HEAD needs to answer 404 rather than 403, is s3:ListBucket with an s3:prefix condition naming the same prefixes (Uploads.grantTo, infra/parts/uploads.ts).",
  },
  {
    finding: iam5Resource('<FailedRunsFailedBatches[0-9A-F]+\\.Arn>/\\*'),
    // The role of one stream consumer (roleFor's `own`).
    where: /^FunctionRole[^/]*Only[A-Za-z]*\//,
    reason:
      "A stream consumer's failed batches: Lambda writes each one under a key it makes at run time (aws/lambda/<mapping>/<shard>/<date>/...), with the consumer's role, into a bucket that holds nothing else (infra/failed-runs.ts); the role may put objects there and list the bucket, as Lambda requires, and neither read nor delete them.",
  },
  {
    finding: /^AwsSolutions-IAM5\[Resource::\*\]$/,
    where: /^FunctionRole.*\/DefaultPolicy\/Resource$/,
    reason:
      'X-Ray (xray:PutTraceSegments, PutTelemetryRecords, added when context "tracing" is on) and the DynamoDB stream listing (dynamodb:ListStreams, added by the event source mapping) support no resource-level permissions; AWS documents "*" as their only resource.',
  },
  {
    finding: /^AwsSolutions-IAM5\[(Action|Resource)::.*\]$/,
    where: cdkProvided,
    reason:
      "Roles of aws-cdk-lib's own custom resource handlers (the catalogue seed, the site deployment's asset copy, auto-deleting objects in non-prod stages): their policies are generated by aws-cdk-lib and bounded to this stack's buckets, the CDK asset bucket and the table.",
  },
  // ---- Lambda ---------------------------------------------------------------------------------
  {
    finding: /^AwsSolutions-L1$/,
    reason:
      "nodejs22.x is a maintained Lambda LTS runtime; the bundles target it (infra/bundling.ts node22) and the cold-start benchmark measures it. Moving to nodejs24.x is a change of its own (bundle target, benchmark, local runtime). aws-cdk-lib's custom resource handlers choose their own runtime.",
  },
  // ---- API Gateway ------------------------------------------------------------------------------
  {
    finding: /^AwsSolutions-APIG4$/,
    // The HTTP routes live in their area's nested stack (infra/route-areas.ts).
    where: /^(HttpApi|WebSocketApi|[A-Za-z]+Routes\/[A-Za-z0-9]+Route)\//,
    reason:
      "Authorization is enforced by every handler before it reads a body, from the route's `access` in shared/routes.ts (owner session cookie, worker bearer token, customer cookie, or public); functions/every-route/authorization.test.ts walks the whole manifest with every kind of caller. Public routes (the catalogue, applications, login, the Stripe webhook, which checks its signature) must stay callable without a credential.",
  },
  {
    finding: /^AwsSolutions-APIG1$/,
    where: /^WebSocketStage\//,
    reason:
      "WebSocket API access logging needs the account-wide API Gateway CloudWatch role (AWS::ApiGateway::Account), which a shared account's other stacks own; every $connect, frame and $disconnect is a Lambda invocation whose log lines carry the API request id (functions/realtime/socket.ts). The HTTP API's stage has access logs.",
  },
  // ---- SQS --------------------------------------------------------------------------------------
  {
    finding: /^AwsSolutions-SQS3$/,
    where: /^DeadLetterQueue\//,
    reason:
      "It is the dead-letter queue (of the Scheduler timers and the recurring jobs, what Scheduler could not deliver and what failed in Lambda: cdk-nag recognises a DLQ only through another queue's redrive policy); a DLQ of a DLQ would hide the messages the DeadLetters alarm watches.",
  },
  // ---- Secrets Manager ----------------------------------------------------------------------------
  {
    finding: /^AwsSolutions-SMG4$/,
    where: /^(OriginSecret|SetupCode)\//,
    reason:
      "The stack's own generated secrets: the origin secret is resolved into the distribution's configuration at deploy time, so a scheduled rotation would break every API request until the next deploy; it is changed by hand with the README runbook (accept the old and the new value, deploy, drop the old). The setup code opens nothing once the owner exists.",
  },
  // ---- CloudFront -------------------------------------------------------------------------------
  {
    finding: /^AwsSolutions-CFR1$/,
    where: /^Distribution\//,
    reason: 'No geographic restriction: customers and workers reach the marketplace from anywhere, and booking rules are enforced by service area, not by the viewer\'s country.',
  },
  {
    finding: /^AwsSolutions-CFR2$/,
    where: /^Distribution\//,
    reason:
      "WAF is the operator's choice (context wafRateLimit builds a web ACL with rate rules and AWS managed rule groups, infra/waf.ts; webAclArn takes their own): a CloudFront web ACL must live in us-east-1 and is billed per request. Without it the API is throttled per route on its stage (infra/throttling.ts), logins and creation are rationed per account and address in the handlers, and bodies are bounded and validated.",
  },
  {
    finding: /^AwsSolutions-CFR4$/,
    where: /^Distribution\//,
    reason:
      "Only without context domainName: the distribution then answers on the default *.cloudfront.net certificate, for which CloudFront fixes the viewer minimum protocol at TLSv1 and no policy can be set; viewers are redirected to HTTPS. With domainName the stack sets its certificate and TLSv1.2_2021, and this finding does not arise.",
  },
];

/**
 * Runs the pack over the stack and acknowledges each finding an entry above covers, on the construct
 * it was found on. Called at the end of the stack's constructor, so the app and the tests see the
 * same acknowledgments.
 */
export function acknowledgeNagFindings(stack: Stack, acknowledgments: readonly NagAcknowledgment[] = nagAcknowledgments): void {
  const report = new AwsSolutionsChecks(stack).validateScope(stack);
  const constructs = new Map<string, IConstruct>(stack.node.findAll().map((c) => [c.node.path, c]));
  const prefix = `${stack.node.path}/`;
  for (const violation of report.violations) {
    for (const { constructPath } of violation.violatingResources) {
      const path = constructPath?.startsWith(prefix) ? constructPath.slice(prefix.length) : constructPath ?? '';
      const ack = acknowledgments.find((a) => a.finding.test(violation.ruleName) && (!a.where || a.where.test(path)));
      const construct = constructPath ? constructs.get(constructPath) : undefined;
      if (ack && construct) Validations.of(construct).acknowledge({ id: violation.ruleName, reason: ack.reason });
    }
  }
}

/** The findings left unacknowledged, as "rule at path" lines (empty when the stack is clean). */
export function unacknowledgedNagFindings(stack: Stack): string[] {
  const report = new AwsSolutionsChecks(stack).validateScope(stack);
  return report.violations.flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} (${v.severity}) at ${r.constructPath}`));
}
