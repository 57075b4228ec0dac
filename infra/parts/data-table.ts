import { marshall } from '@aws-sdk/util-dynamodb';
import { RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { adoptedTableOf } from '../adopted-table';
import { catalogItems } from '../../functions/catalog/data/items';
import type { RouteDef, TableAccess } from '../../shared/routes';
import { table as tableDef } from '../../shared/table';
import type { Settings } from './settings';

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

/** BatchWriteItem takes at most 25 requests. */
const BATCH_LIMIT = 25;

/**
 * The single table, built from shared/table.ts, with the service catalogue seeded on every create
 * and update. After a point-in-time restore, the restored table instead (context "tableName" and
 * "tableStreamArn", infra/adopted-table.ts): every function, the seed and the stream consumers use
 * whichever this is.
 */
export class DataTable {
  readonly table: dynamodb.ITable;

  constructor(stack: Stack, { isProd }: Settings) {
    const adopted = adoptedTableOf((key) => stack.node.tryGetContext(key));
    if (adopted) {
      this.table = dynamodb.Table.fromTableAttributes(stack, 'AdoptedTable', {
        ...adopted,
        globalIndexes: tableDef.indexes.map((index) => index.name),
      });
    } else {
      const str = dynamodb.AttributeType.STRING;
      const table = new dynamodb.Table(stack, 'Table', {
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
    this.seedCatalog(stack);
  }

  private seedCatalog(stack: Stack): void {
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
      new AwsCustomResource(stack, chunk === 0 ? 'SeedCatalog' : `SeedCatalog${chunk}`, {
        onCreate: call,
        onUpdate: call,
        installLatestAwsSdk: false,
        policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [this.table.tableArn] }),
      });
    }
  }

  /** The name part of a function role's key for this access: roles with equal keys are shared. */
  static roleKey(access: RouteDef['table']): string[] {
    const { tableAccess, leadingKeys, onIndexes } = DataTable.#parse(access);
    return [`table-${tableAccess}`, ...(leadingKeys ? [`keys ${leadingKeys.join(' ')}`] : []), ...(onIndexes ? ['indexes'] : [])];
  }

  static #parse(access: RouteDef['table']) {
    return {
      tableAccess: typeof access === 'string' ? access : access.access,
      leadingKeys: typeof access === 'string' ? undefined : [...access.partitionKeys],
      onIndexes: typeof access !== 'string' && Boolean(access.indexes),
    };
  }

  /** Gives a function role the table access of a manifest entry, never Scan. */
  grant(role: IRole, access: RouteDef['table']): void {
    const { tableAccess, leadingKeys, onIndexes } = DataTable.#parse(access);
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
  }
}
