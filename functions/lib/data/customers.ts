import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys, table } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { newId } from '../ids';
import { WriteCancelled, writeTogether } from './transact';

/** A retry comes within minutes of its first call; a day covers a person pressing again tomorrow. */
const KEY_TTL_SECONDS = 24 * 60 * 60;

interface CustomerItem {
  pk: string;
  sk: string;
  entity: 'customer';
  id: string;
  issuedAt: string;
}

const epochSeconds = () => Math.floor(Date.now() / 1000);

function identityItem(id: string): CustomerItem {
  return { ...keys.customer(id), entity: 'customer', id, issuedAt: new Date().toISOString() };
}

/** Customer identities: issued by the server only, random, and stored, so a client cannot choose one. */
export const customersRepo = {
  async issue(): Promise<string> {
    const item = identityItem(newId());
    await dynamo.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return item.id;
  },

  /** Records an identity under an id the caller names: only the local runtime's dev-login does. */
  async issueAs(id: string): Promise<void> {
    await dynamo.send(new PutCommand({ TableName: tableName, Item: identityItem(id) }));
  },

  /**
   * The identity a first-time visitor's Idempotency-Key minted, minting it on the first call: the
   * retry of a call whose answer (and cookie) was lost finds the same customer, and so the same
   * items, while the id itself stays random rather than computable from the key.
   */
  async issueForKey(keyHash: string): Promise<string> {
    const item = identityItem(newId());
    try {
      await writeTogether([
        { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          Put: {
            TableName: tableName,
            Item: { ...keys.customerByKey(keyHash), entity: 'customer-key', customerId: item.id, [table.ttlAttribute]: epochSeconds() + KEY_TTL_SECONDS },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ]);
      return item.id;
    } catch (error) {
      if (!(error instanceof WriteCancelled) || !error.refusedAt(1)) throw error;
      // A concurrent first call may still be committing: read strongly, and once more after a beat.
      for (let attempt = 0; attempt < 3; attempt++) {
        const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.customerByKey(keyHash), ConsistentRead: true }));
        const customerId = out.Item?.customerId as string | undefined;
        if (customerId) return customerId;
        await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
      }
      throw error;
    }
  },

  /**
   * Whether the server issued this id. Identities issued before they were stored are recognised by
   * what they own (a booking, request or invoice on their index): only the server ever wrote items
   * under a customer id, so owning one proves the server issued it. Read-only, so routes with a
   * read grant can ask too.
   */
  async isIssued(id: string): Promise<boolean> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.customer(id) }));
    if (out.Item) return true;
    const owned = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.customerBookings(id).gsi1pk },
        Limit: 1,
        ProjectionExpression: 'pk',
      }),
    );
    return Boolean(owned.Items?.length);
  },
};
