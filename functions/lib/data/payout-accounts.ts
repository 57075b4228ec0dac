import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { writeTogether, WriteCancelled } from './transact';

/**
 * Workers' Stripe Connect accounts: the id on the profile (set once, so two clicks on "Set up
 * payouts" keep one account) and a reverse entry from the account id, for account.updated webhooks.
 */
export const payoutAccountsRepo = {
  /** Records the account unless the worker has one already; answers the one that stands. */
  async attach(workerId: string, accountId: string, now: string): Promise<string> {
    try {
      await writeTogether([
        {
          Update: {
            TableName: tableName,
            Key: keys.worker(workerId),
            UpdateExpression: 'SET stripeAccountId = :a, payoutsEnabled = :false, updatedAt = :now',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(stripeAccountId)',
            ExpressionAttributeValues: { ':a': accountId, ':false': false, ':now': now },
          },
        },
        { Put: { TableName: tableName, Item: { ...keys.stripeAccount(accountId), entity: 'stripe-account', accountId, workerId, createdAt: now } } },
      ]);
      return accountId;
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.worker(workerId), ConsistentRead: true }));
      const standing = out.Item?.stripeAccountId as string | undefined;
      if (!standing) throw error;
      return standing;
    }
  },

  async workerIdOf(accountId: string): Promise<string | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.stripeAccount(accountId) }));
    return out.Item?.workerId as string | undefined;
  },

  /** What Stripe last said of the account; only for the account on the profile. */
  async setPayoutsEnabled(workerId: string, accountId: string, enabled: boolean, now: string): Promise<void> {
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.worker(workerId),
          UpdateExpression: 'SET payoutsEnabled = :e, updatedAt = :now',
          ConditionExpression: 'stripeAccountId = :a',
          ExpressionAttributeValues: { ':e': enabled, ':a': accountId, ':now': now },
        }),
      );
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    }
  },
};
