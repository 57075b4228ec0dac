import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnRole } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedRoutes, recurring, socketRoutes, streamConsumers, timers } from '../shared/routes';
import { keys } from '../shared/entities';
import { table as tableDef } from '../shared/table';
import { adoptedTableOf } from './adopted-table';
import { ASYNC_MAX_EVENT_AGE, ASYNC_RETRY_ATTEMPTS, FAILED_BATCH_DAYS } from './failed-runs';
import { MarketplaceStack } from './marketplace-stack';
import { testSynth } from './testing/synth';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string; Condition?: Record<string, Record<string, unknown>> };

/** A synth takes up to a minute on a loaded two-core machine. */
const SYNTH_TIMEOUT = 180_000;

const { synth, cleanup } = testSynth();
let prod: ReturnType<typeof synth>;
beforeAll(() => {
  prod = synth();
}, SYNTH_TIMEOUT);
afterAll(cleanup);

const resources = (template: Template) => template.toJSON().Resources as Record<string, Resource>;
const ofType = (template: Template, type: string) => Object.entries(resources(template)).filter(([, r]) => r.Type === type);
const logicalId = (stack: Stack, construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnRole);
const actions = (s: Statement) => [s.Action].flat();

/** Every statement of every IAM policy attached to a role (by its logical id). */
function statementsOfRole(template: Template, roleId: string): Statement[] {
  return ofType(template, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Statement[]);
}
const roleIdOf = (stack: MarketplaceStack, fn: { role?: IConstruct }) => logicalId(stack, fn.role!);

/** The stack as `cdk synth -c key=value` builds it. */
const synthWithContext = (context: Record<string, unknown>) => synth({}, context);

describe('deploy safety: a first deploy that fails can be retried', () => {
  /** Properties that give a resource a physical name of ours, which a second one cannot take. */
  const nameProperties = ['BucketName', 'TableName', 'QueueName', 'LogGroupName', 'FunctionName', 'RoleName', 'TopicName', 'AliasName', 'Name'];
  /**
   * A name that is the same on every attempt: built from literals and the account and region, not
   * from a name CloudFormation generates anew for each create (a Ref or GetAtt of a resource).
   */
  const fixed = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.every(fixed);
    if (value && typeof value === 'object') {
      const node = value as Record<string, unknown>;
      if (typeof node.Ref === 'string') return node.Ref.startsWith('AWS::');
      if ('Fn::GetAtt' in node) return false;
      return Object.values(node).every(fixed);
    }
    return true;
  };

  it('lets the rollback of a failed first deploy remove everything that has a fixed name', () => {
    // Act
    const named = Object.entries(resources(prod.template)).filter(([, r]) =>
      nameProperties.some((p) => r.Properties?.[p] !== undefined && fixed(r.Properties[p])),
    );
    const leftBehind = named.filter(([, r]) => r.DeletionPolicy !== undefined && r.DeletionPolicy !== 'Delete' && r.DeletionPolicy !== 'RetainExceptOnCreate');

    // Assess
    expect(named.length).toBeGreaterThan(5);
    expect(leftBehind.map(([id, r]) => `${id} (${r.Type}): ${r.DeletionPolicy}`)).toEqual([]);
  });

  it('keeps the uploads bucket through updates and deletion in prod, but not through a failed first create', () => {
    // Act
    const [, uploads] = ofType(prod.template, 'AWS::S3::Bucket').find(([, b]) => JSON.stringify(b.Properties.BucketName ?? '').includes('marketplace-uploads-prod-'))!;

    // Assess
    expect(uploads).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
  });

  it('keeps every other retained resource the same way, and the deletion-protected table with a plain Retain', () => {
    // Act
    // aws-cdk-lib's own custom resource handlers (the catalogue seed's, the site deployment's) keep
    // their log groups, named after functions whose names CloudFormation generates per create.
    const cdkProvided = /^(AWS679f53fac002430cb0da5b7982bd2287|CustomCDKBucketDeployment)/;
    const retained = Object.entries(resources(prod.template)).filter(([id, r]) => r.DeletionPolicy && r.DeletionPolicy !== 'Delete' && !cdkProvided.test(id));
    const [tableId, table] = ofType(prod.template, 'AWS::DynamoDB::Table')[0]!;
    const others = retained.filter(([id]) => id !== tableId);

    // Assess
    // DynamoDB refuses to delete a protected table, so a rollback could not; its generated name
    // never blocks a retry.
    expect(table).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain', Properties: { DeletionProtectionEnabled: true } });
    expect(table.Properties.TableName).toBeUndefined();
    expect(new Set(others.map(([, r]) => r.Type))).toEqual(
      new Set(['AWS::S3::Bucket', 'AWS::SQS::Queue', 'AWS::Logs::LogGroup', 'AWS::KMS::Key']),
    );
    for (const [id, r] of others) expect({ id, DeletionPolicy: r.DeletionPolicy, UpdateReplacePolicy: r.UpdateReplacePolicy }).toEqual({ id, DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
  });
});

describe('deploy safety: the recurring schedules can assume their roles', () => {
  it("puts every recurring schedule in the stack's own recurring group", () => {
    // Prepare
    const { stack, template } = prod;
    const groupId = stack.getLogicalId(stack.recurringGroup.node.defaultChild as CfnScheduleGroup);

    // Act
    const [, group] = ofType(template, 'AWS::Scheduler::ScheduleGroup').find(([id]) => id === groupId)!;
    const schedules = ofType(template, 'AWS::Scheduler::Schedule').map(([, s]) => s as Resource & { DependsOn?: string | string[] });

    // Assess
    expect(group.Properties.Name).toBe('Marketplace-prod-recurring');
    expect(schedules.map((s) => s.Properties.Name).sort()).toEqual(recurring.map((job) => `Marketplace-prod-${job.name}`).sort());
    for (const schedule of schedules) {
      expect(schedule.Properties.GroupName).toBe('Marketplace-prod-recurring');
      // Named by a literal, so the group must be created first by an explicit dependency.
      expect([schedule.DependsOn].flat()).toContain(groupId);
    }
  });

  it('lets each schedule role be assumed by Scheduler for the schedule group, the ARN Scheduler presents, from this account alone', () => {
    // Prepare
    const { stack, template } = prod;
    const groupId = stack.getLogicalId(stack.recurringGroup.node.defaultChild as CfnScheduleGroup);

    // Act
    const trusts = ofType(template, 'AWS::Scheduler::Schedule').map(([, s]) => {
      const roleId = s.Properties.Target.RoleArn['Fn::GetAtt'][0] as string;
      return resources(template)[roleId]!.Properties.AssumeRolePolicyDocument.Statement as Statement[];
    });

    // Assess
    expect(trusts).toHaveLength(recurring.length);
    for (const trust of trusts) {
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
    }
  });

  it('lets no function create schedules in the recurring group (so none can borrow those roles)', () => {
    // Act
    const creating = ofType(prod.template, 'AWS::IAM::Policy')
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[])
      .filter((s) => actions(s).some((a) => a === 'scheduler:CreateSchedule' || a === 'scheduler:*'));

    // Assess
    expect(creating.length).toBeGreaterThan(0);
    for (const statement of creating) expect(JSON.stringify(statement.Resource)).toMatch(/-timers\/\*/);
  });
});

describe('deploy safety: failed runs are kept and can be replayed', () => {
  const queueArn = () => ({ 'Fn::GetAtt': [prod.stack.getLogicalId(prod.stack.deadLetterQueue.node.defaultChild as CfnQueue), 'Arn'] });
  const bucketId = () => prod.stack.getLogicalId(prod.stack.failedRuns.batchesBucket.node.defaultChild as CfnBucket);
  const asyncFunctions = () => [...Object.values(prod.stack.timerFunctions), ...Object.values(prod.stack.recurringFunctions)];

  it('records every failed timer and recurring run, with its payload, in the dead-letter queue after two retries', () => {
    // Prepare
    const { stack, template } = prod;

    // Act
    const configs = ofType(template, 'AWS::Lambda::EventInvokeConfig').map(([, c]) => c.Properties);

    // Assess
    expect(asyncFunctions()).toHaveLength(timers.length + recurring.length);
    for (const fn of asyncFunctions()) {
      const config = configs.find((c) => c.FunctionName.Ref === stack.getLogicalId(fn.node.defaultChild as CfnFunction));
      expect(config, fn.node.path).toEqual({
        FunctionName: { Ref: stack.getLogicalId(fn.node.defaultChild as CfnFunction) },
        Qualifier: '$LATEST',
        MaximumRetryAttempts: ASYNC_RETRY_ATTEMPTS,
        MaximumEventAgeInSeconds: ASYNC_MAX_EVENT_AGE.toSeconds(),
        DestinationConfig: { OnFailure: { Destination: queueArn() } },
      });
      const sends = statementsOfRole(template, roleIdOf(stack, fn)).filter((s) => actions(s).includes('sqs:SendMessage'));
      expect(sends.map((s) => s.Resource)).toContainEqual(queueArn());
    }
  });

  it('gives the timers and recurring jobs roles of their own: no HTTP route may write to the dead-letter queue', () => {
    // Prepare
    const { stack, template } = prod;
    const asyncRoles = new Set(asyncFunctions().map((fn) => roleIdOf(stack, fn)));

    // Act
    const routeRoles = new Set(deployedRoutes.map((r) => roleIdOf(stack, stack.functions[r.name]!)));
    const routeRolesSending = [...routeRoles].filter((id) => statementsOfRole(template, id).some((s) => actions(s).some((a) => a.startsWith('sqs:'))));

    // Assess
    expect([...asyncRoles].filter((id) => routeRoles.has(id))).toEqual([]);
    expect(routeRolesSending).toEqual([]);
  });

  it('keeps a stream batch that failed its retries whole in the failed-batch bucket, counting what it keeps and drops', () => {
    // Prepare
    const { stack, template } = prod;

    // Act
    const mappings = ofType(template, 'AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties);

    // Assess
    expect(mappings).toHaveLength(streamConsumers.length);
    for (const mapping of mappings) {
      expect(mapping).toMatchObject({
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: 2,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [bucketId(), 'Arn'] } } },
        MetricsConfig: { Metrics: ['EventCount'] },
      });
    }
    for (const consumer of streamConsumers) {
      const onBucket = statementsOfRole(template, roleIdOf(stack, stack.streamFunctions[consumer.name]!)).filter((s) => JSON.stringify(s.Resource).includes(bucketId()));
      // What Lambda needs to write there, and nothing to read or delete what is kept.
      expect(onBucket.flatMap(actions).sort()).toEqual(['s3:ListBucket', 's3:PutObject']);
    }
  });

  it('keeps failed batches private, encrypted, TLS-only and access-logged, for the stated days, and names the bucket in an output', () => {
    // Prepare
    const { template } = prod;

    // Act
    const bucket = resources(template)[bucketId()]!;
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    const policy = ofType(template, 'AWS::S3::BucketPolicy').find(([, p]) => JSON.stringify(p.Properties.Bucket).includes(bucketId()));

    // Assess
    expect(bucket).toMatchObject({
      DeletionPolicy: 'RetainExceptOnCreate',
      Properties: {
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        LoggingConfiguration: { LogFilePrefix: 'failed-batches/' },
        LifecycleConfiguration: { Rules: [{ ExpirationInDays: FAILED_BATCH_DAYS, Status: 'Enabled', Id: 'expire-failed-batches' }] },
      },
    });
    expect(JSON.stringify(policy?.[1].Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
    expect(outputs.FailedBatchesBucketName?.Value).toEqual({ Ref: bucketId() });
  });

  it('alarms on a kept batch and a dropped one of each consumer, and on any failure that could not be kept', () => {
    // Prepare
    const { stack, template } = prod;
    const alarms = ofType(template, 'AWS::CloudWatch::Alarm').map(([id, a]): Record<string, any> => ({ id, ...a.Properties }));
    const mappingIds = ofType(template, 'AWS::Lambda::EventSourceMapping').map(([id]) => id);

    // Act
    const kept = alarms.filter((a) => a.MetricName === 'OnFailureDestinationDeliveredEventCount');
    const dropped = alarms.filter((a) => a.MetricName === 'DroppedEventCount');
    const lost = alarms.filter((a) => JSON.stringify(a.Metrics ?? []).includes('DestinationDeliveryFailures'));
    const watchedForLoss = lost.flatMap((a) =>
      (a.Metrics as { MetricStat?: { Metric: { MetricName: string; Dimensions: { Value: { Ref: string } }[] } } }[])
        .filter((m) => m.MetricStat)
        .map((m) => m.MetricStat!.Metric.Dimensions[0]!.Value.Ref),
    );
    const keepers = [...asyncFunctions(), ...Object.values(stack.streamFunctions)].map((fn) => stack.getLogicalId(fn.node.defaultChild as CfnFunction));

    // Assess
    for (const family of [kept, dropped]) {
      expect(family).toHaveLength(streamConsumers.length);
      for (const alarm of family) {
        expect(alarm).toMatchObject({ Namespace: 'AWS/Lambda', Statistic: 'Sum', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
        expect(mappingIds).toContain(alarm.Dimensions[0].Value.Ref);
        expect(alarm.Dimensions[0].Name).toBe('EventSourceMappingUUID');
      }
    }
    expect(kept[0]!.AlarmDescription).toMatch(/npm run replay -- s3:\/\//);
    expect(watchedForLoss.sort()).toEqual(keepers.sort());
  });
});

describe('deploy safety: least privilege in the uploads bucket and the table', () => {
  const uploadsBucketArn = /arn:.*:s3:::marketplace-uploads-prod-/;

  it('lets no function list, or read the settings of, the whole uploads bucket: listing is bounded to the prefixes it reads', () => {
    // Prepare
    const { template } = prod;
    const roleIds = ofType(template, 'AWS::IAM::Role').map(([id]) => id).filter((id) => id.startsWith('FunctionRole'));

    // Act
    const onBucket = roleIds.flatMap((roleId) =>
      statementsOfRole(template, roleId)
        .filter((s) => [s.Resource].flat().some((r) => uploadsBucketArn.test(JSON.stringify(r)) && !JSON.stringify(r).includes('/')))
        .map((s) => ({ roleId, s })),
    );

    // Assess
    expect(roleIds.length).toBeGreaterThan(5);
    expect(onBucket.length).toBeGreaterThan(0);
    for (const { roleId, s } of onBucket) {
      expect(actions(s), roleId).toEqual(['s3:ListBucket']);
      const prefixes = s.Condition?.StringLike?.['s3:prefix'] as string[];
      expect(prefixes.length, roleId).toBeGreaterThan(0);
      for (const prefix of prefixes) expect(prefix).toMatch(/^(uploads|applications|document-uploads|documents)\/\*$/);
      // Each listed prefix is one the role reads.
      const reads = statementsOfRole(template, roleId).filter((r) => actions(r).includes('s3:GetObject*')).map((r) => JSON.stringify(r.Resource));
      for (const prefix of prefixes) expect(reads.some((r) => r.includes(`/${prefix}`)), `${roleId} ${prefix}`).toBe(true);
    }
    const anywhere = roleIds.flatMap((id) => statementsOfRole(template, id)).flatMap(actions);
    expect(anywhere.filter((a) => a.startsWith('s3:GetBucket') || a === 's3:List*')).toEqual([]);
  });

  it("limits the public geocode routes to the geocode cache's items in the table, through their partition keys", () => {
    // Prepare
    const { stack, template } = prod;
    const geocode = ['search-addresses', 'reverse-geocode'].map((name) => stack.functions[name]!);
    const roleId = roleIdOf(stack, geocode[0]!);

    // Act
    const onTable = statementsOfRole(template, roleId).filter((s) => actions(s).some((a) => a.startsWith('dynamodb:')));
    const sharers = deployedRoutes.filter((r) => roleIdOf(stack, stack.functions[r.name]!) === roleId).map((r) => r.name);

    // Assess
    expect(roleIdOf(stack, geocode[1]!)).toBe(roleId);
    expect(sharers.sort()).toEqual(['reverse-geocode', 'search-addresses']);
    // Reads and writes on the cache's keys alone: one statement, as the reads' and the writes' keys
    // are the same (cdk.json's minimizePolicies merges statements that differ only in actions).
    expect(onTable).toHaveLength(1);
    expect(onTable.flatMap(actions)).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem']));
    for (const statement of onTable) {
      expect(statement.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [keys.geocode('*').pk] },
        Null: { 'dynamodb:LeadingKeys': 'false' },
      });
      // The table itself, none of its indexes.
      expect(JSON.stringify(statement.Resource)).not.toContain('/index/');
    }
    expect(keys.geocode('*').pk).toBe('GEOCODE#*');
  });
});

describe('deploy safety: running on a table restored to a point in time', () => {
  const restored = 'marketplace-prod-restored-20261122';
  const restoredStream = `arn:aws:dynamodb:us-east-1:123456789012:table/${restored}/stream/2026-11-22T16:04:06.388`;
  let adopted: ReturnType<typeof synthWithContext>;
  beforeAll(() => {
    adopted = synthWithContext({ tableName: restored, tableStreamArn: restoredStream });
  }, SYNTH_TIMEOUT);

  it('creates no table, and gives every function the restored table to use', () => {
    // Act
    const tables = ofType(adopted.template, 'AWS::DynamoDB::Table');
    const withTable = ofType(adopted.template, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Environment?.Variables?.TABLE_NAME !== undefined);

    // Assess
    expect(tables).toEqual([]);
    expect(withTable).toHaveLength(deployedRoutes.length + timers.length + socketRoutes.length + streamConsumers.length + recurring.length);
    for (const [id, fn] of withTable) expect(fn.Properties.Environment.Variables.TABLE_NAME, id).toBe(restored);
    expect((adopted.template.toJSON().Outputs as Record<string, { Value: unknown }>).TableName?.Value).toBe(restored);
  });

  it("feeds the stream consumers from the restored table's stream, and lets them read it", () => {
    // Act
    const mappings = ofType(adopted.template, 'AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties);
    const consumerRole = roleIdOf(adopted.stack, adopted.stack.streamFunctions[streamConsumers[0].name]!);
    const streamReads = statementsOfRole(adopted.template, consumerRole).filter((s) => actions(s).includes('dynamodb:GetRecords'));

    // Assess
    expect(mappings).toHaveLength(streamConsumers.length);
    for (const mapping of mappings) expect(mapping.EventSourceArn).toBe(restoredStream);
    expect(streamReads.map((s) => s.Resource)).toEqual([restoredStream]);
  });

  it('seeds the catalogue into, and grants the functions, the restored table and its indexes only', () => {
    // Prepare
    const tableArnTail = `:table/${restored}`;

    // Act
    const seeds = ofType(adopted.template, 'Custom::AWS').map(([, r]) => JSON.stringify(r.Properties.Create));
    const timerRole = roleIdOf(adopted.stack, adopted.stack.timerFunctions[timers[0].name]!);
    const tableResources = statementsOfRole(adopted.template, timerRole)
      .filter((s) => actions(s).includes('dynamodb:Query'))
      .flatMap((s) => [s.Resource].flat().map((r) => JSON.stringify(r)));

    // Assess
    expect(seeds.length).toBeGreaterThan(0);
    for (const seed of seeds) expect(seed).toContain(`\\"RequestItems\\":{\\"${restored}\\"`);
    expect(tableResources.length).toBe(2);
    expect(tableResources.every((r) => r.includes(tableArnTail))).toBe(true);
    expect(tableResources.some((r) => r.includes(`${tableArnTail}/index/*`))).toBe(true);
    expect(tableDef.indexes.length).toBeGreaterThan(0);
  });

  it('fails the synth when the restored table is named without its stream, saying how to enable one', () => {
    // Act
    const withoutStream = () => synthWithContext({ tableName: restored });

    // Assess
    expect(withoutStream).toThrow(/needs "tableStreamArn" too/);
    expect(withoutStream).toThrow(
      `aws dynamodb update-table --table-name ${restored} --stream-specification StreamEnabled=true,StreamViewType=NEW_IMAGE`,
    );
  });

  it("refuses a stream of another table, a stream without a table, and what is no table name or stream ARN", () => {
    // Prepare
    const context = (values: Record<string, string>) => (key: string) => values[key];

    // Act
    const otherTable = () => adoptedTableOf(context({ tableName: restored, tableStreamArn: restoredStream.replace(restored, 'another-table') }));
    const streamOnly = () => adoptedTableOf(context({ tableStreamArn: restoredStream }));
    const badName = () => adoptedTableOf(context({ tableName: 'a b', tableStreamArn: restoredStream }));
    const badStream = () => adoptedTableOf(context({ tableName: restored, tableStreamArn: 'stream-1' }));
    const neither = adoptedTableOf(context({}));

    // Assess
    expect(otherTable).toThrow(/is the stream of table another-table, not of "tableName"/);
    expect(streamOnly).toThrow(/"tableStreamArn" is given without "tableName"/);
    expect(badName).toThrow(/must be a DynamoDB table name/);
    expect(badStream).toThrow(/must be a DynamoDB stream ARN/);
    expect(neither).toBeUndefined();
  });
});
