import { createHash } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import { RemovalPolicy, type Stack } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { adoptedTableOf } from '../adopted-table';
import { catalogItems } from '../../functions/catalog/data/items';
import type { TableAccess } from '../../shared/routes';
import type { KeyPatterns } from '../table-grants';
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

  /**
   * The name part of a function role's key for this grant: roles with equal keys are shared. The
   * patterns are too many to spell in a construct id, so they are named by a digest.
   */
  static roleKey(access: TableAccess, patterns: KeyPatterns): string[] {
    if (access === 'none') return ['table-none'];
    const digest = createHash('sha256').update(JSON.stringify(DataTable.#statements(access, patterns))).digest('hex').slice(0, 10);
    return [`table-${access}`, `keys ${digest}`];
  }

  /**
   * What a function with this access, touching these partition keys, is allowed: the access level's
   * actions, each on the keys that need them. Reads on every table key it touches (a write's
   * condition reads too), writes on those it writes, and Query of the indexes on the indexes' own
   * partition keys, apart: an index's key patterns are coarser (shared/entities/define.ts) and must
   * not reach the table's items.
   */
  static #statements(access: TableAccess, { read, write, indexes }: KeyPatterns) {
    const reads = access === 'read' || access === 'readwrite';
    const writes = access === 'write' || access === 'readwrite';
    return [
      ...(reads && read.length ? [{ on: 'table', actions: readActions, keys: read }] : []),
      ...(writes && write.length ? [{ on: 'table', actions: writeActions, keys: write }] : []),
      ...(reads && indexes.length ? [{ on: 'indexes', actions: ['dynamodb:Query'], keys: indexes }] : []),
    ] as const;
  }

  /**
   * Gives a function role the table access of its manifest entry on the partition keys its code
   * touches (infra/table-grants.ts), never Scan. dynamodb:LeadingKeys is every partition key a
   * request names: the table's for GetItem, a write or a Query of the table, the index's own for a
   * Query of an index.
   */
  grant(role: IRole, access: TableAccess, patterns: KeyPatterns): void {
    for (const statement of DataTable.#statements(access, patterns)) {
      role.addToPrincipalPolicy(
        new PolicyStatement({
          effect: Effect.ALLOW,
          actions: [...statement.actions],
          resources: statement.on === 'table' ? [this.table.tableArn] : [`${this.table.tableArn}/index/*`],
          conditions: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...statement.keys] },
            // ForAllValues also holds for a request that names no key; every action here names one.
            Null: { 'dynamodb:LeadingKeys': 'false' },
          },
        }),
      );
    }
  }
}
