import path from 'node:path';
import { Duration, type Stack } from 'aws-cdk-lib';
import { ManagedPolicy, Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, RuntimeFamily, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { lambdaBundling } from '../bundling';
import { FUNCTION_TIMEOUT_SECONDS, NODE_RUNTIME } from '../function-defaults';
import type { Access, DocumentGrant, RouteDef, TableGrant } from '../../shared/routes';
import { keyPatternsOf } from '../table-grants';
import { DataTable } from './data-table';
import { pascal, repoRoot, type Settings } from './settings';
import type { Uploads } from './uploads';

/** The variable that opens the local runtime's own behaviour (functions/common/env.ts); never deployed. */
const LOCAL_RUNTIME_VARIABLE = 'LOCAL_RUNTIME';

/**
 * What a function may touch, from its manifest entry. Functions that need exactly the same share
 * one role: least privilege is unchanged (a role holds what each of its functions needs and no
 * more), and a role and a policy per function would cost two of CloudFormation's 500 resources for
 * each of some ninety functions. `own` gives a function a role of its own (a stream consumer, whose
 * event source adds the stream's rights to it).
 */
export interface Needs {
  /**
   * The function whose table grant this is, as its manifest entry names it: its access level and,
   * for a route, who may call it. The keys it may touch are generated from its code (keyPatternsOf).
   */
  table: { name: string; table: TableGrant; access?: Access };
  uploads?: RouteDef['uploads'];
  documents?: readonly DocumentGrant[];
  scheduler?: boolean;
  realtime?: boolean;
  /** Invoked asynchronously: may record a failed run in the dead-letter queue (infra/failed-runs.ts). */
  failedRuns?: boolean;
  own?: string;
}

/** The rights other parts hand out: each knows its own resource. */
export interface FunctionGrants {
  table: DataTable;
  uploads: Uploads;
  grantScheduling: (role: IRole) => void;
  grantRealtime: (role: IRole) => void;
  grantFailedRuns: (role: IRole) => void;
}

export interface FunctionOptions {
  description: string;
  environment: Record<string, string>;
  role: IRole;
  functionName?: string;
  timeout?: Duration;
  memorySize?: number;
  /** The stack the function lives in: the main one, or a route area's nested stack. */
  scope?: Construct;
}

/**
 * How every function is made, route, timer, socket, stream consumer or job: the same runtime,
 * bundling and log group, a role shared by the functions with the same needs, and the environment
 * every function starts from.
 */
export class Functions {
  /**
   * One log group for every function: Lambda names each stream in a shared group after its function
   * (YYYY/MM/DD/<function>[<version>]...), so nothing is lost, and a group per function would cost
   * one of CloudFormation's 500 resources per route; with the realtime and push routes the stack
   * passed that limit.
   */
  readonly logGroup: LogGroup;
  /** What every function is told: the table, the bucket, the stage and the business settings. */
  readonly environment: Record<string, string>;
  private readonly roles = new Map<string, Role>();

  constructor(
    private readonly stack: Stack,
    private readonly settings: Settings,
    private readonly grants: FunctionGrants,
  ) {
    this.environment = {
      TABLE_NAME: grants.table.table.tableName,
      UPLOADS_BUCKET: grants.uploads.bucketName,
      STAGE: settings.stage,
      PLATFORM_FEE_PERCENT: String(settings.platformFeePercent),
      SUPPORT_EMAIL: settings.supportEmail,
      ...(settings.distanceUnit ? { DISTANCE_UNIT: settings.distanceUnit } : {}),
      NODE_OPTIONS: '--enable-source-maps',
      ...settings.dispatchEnvironment,
    };
    this.logGroup = new LogGroup(stack, 'FunctionLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: settings.removalPolicy,
    });
  }

  /** The role of the functions with these needs, made the first time they are asked for. */
  roleFor(needs: Needs): Role {
    // From the code the function is built from (a test's stack may build several from one file).
    const keyPatterns = keyPatternsOf(needs.table.name, needs.table.access, path.relative(repoRoot, this.settings.entryOf(needs.table.name)));
    const parts = [
      ...DataTable.roleKey(needs.table.table, keyPatterns),
      ...(needs.uploads ? [`uploads-${needs.uploads}`] : []),
      ...[...new Set(needs.documents ?? [])].sort().map((d) => `documents-${d}`),
      ...(needs.scheduler ? ['scheduler'] : []),
      ...(needs.realtime ? ['realtime'] : []),
      ...(needs.failedRuns ? ['failed-runs'] : []),
      ...(needs.own ? [`only-${needs.own}`] : []),
    ];
    const key = parts.join('-');
    const existing = this.roles.get(key);
    if (existing) return existing;
    const role = new Role(this.stack, `FunctionRole${pascal(key)}`, {
      description: `Functions needing ${parts.join(', ')} (${this.settings.stage})`,
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    this.grants.table.grant(role, needs.table.table, keyPatterns);
    this.grants.uploads.grantTo(role, needs.uploads, needs.documents);
    if (needs.scheduler) this.grants.grantScheduling(role);
    if (needs.realtime) this.grants.grantRealtime(role);
    if (needs.failedRuns) this.grants.grantFailedRuns(role);
    this.roles.set(key, role);
    return role;
  }

  /** A function from `functions/<area>/<name>`, with the construct id `<id>Fn`. */
  create(id: string, name: string, options: FunctionOptions): NodejsFunction {
    // What only the local runtime may do (dev-login, cookies without Secure, loopback push) hangs
    // on this variable, so no deployed function may ever carry it.
    if (LOCAL_RUNTIME_VARIABLE in options.environment) {
      throw new Error(`${name}: ${LOCAL_RUNTIME_VARIABLE} is the local runtime's switch and is never deployed`);
    }
    return new NodejsFunction(options.scope ?? this.stack, `${id}Fn`, {
      description: options.description,
      functionName: options.functionName,
      role: options.role,
      entry: this.settings.entryOf(name),
      handler: 'handler',
      projectRoot: repoRoot,
      depsLockFilePath: `${repoRoot}package-lock.json`,
      runtime: new Runtime(NODE_RUNTIME, RuntimeFamily.NODEJS, { supportsInlineCode: true }),
      architecture: Architecture.ARM_64,
      memorySize: options.memorySize ?? 256,
      timeout: options.timeout ?? Duration.seconds(FUNCTION_TIMEOUT_SECONDS),
      logGroup: this.logGroup,
      tracing: this.settings.tracing ? Tracing.ACTIVE : undefined,
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
  }
}
