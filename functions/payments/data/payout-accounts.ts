import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { stripeAccountEntity, workerEntity, type StripeAccountItem } from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { putOf, updateOf } from '../../common/data/expressions';
import { writeTogether, WriteCancelled } from '../../common/data/transact';
import { tryUpdate } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

/**
 * Workers' Stripe Connect accounts: the id on the profile (set once, so two clicks on "Set up
 * payouts" keep one account) and a reverse entry from the account id, for account.updated webhooks.
 */
export const payoutAccountsRepo = {
  /** Records the account unless the worker has one already; answers the one that stands. */
  async attach(workerId: string, accountId: string, now: string): Promise<string> {
    const reverse: StripeAccountItem = { ...stripeAccountEntity.key(accountId), entity: 'stripe-account', accountId, workerId, createdAt: now };
    try {
      await writeTogether([
        {
          Update: updateOf(workerEntity, workerEntity.key(workerId), {
            set: { stripeAccountId: accountId, payoutsEnabled: false, updatedAt: now },
            if: (c) => c.and(c.exists('pk'), c.notExists('stripeAccountId')),
          }),
        },
        { Put: putOf(stripeAccountEntity, reverse) },
      ]);
      return accountId;
    } catch (error) {
      if (!(error instanceof WriteCancelled)) throw error;
      const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: workerEntity.key(workerId), ConsistentRead: true }));
      const standing = out.Item?.stripeAccountId as string | undefined;
      if (!standing) throw error;
      return standing;
    }
  },

  async workerIdOf(accountId: string): Promise<string | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: stripeAccountEntity.key(accountId) }));
    return (out.Item as StripeAccountItem | undefined)?.workerId;
  },

  /** What Stripe last said of the account; only for the account on the profile. */
  async setPayoutsEnabled(workerId: string, accountId: string, enabled: boolean, now: string): Promise<void> {
    // Another account than the profile's (or no profile): nothing to record.
    await tryUpdate(
      updateOf(workerEntity, workerEntity.key(workerId), {
        set: { payoutsEnabled: enabled, updatedAt: now },
        if: (c) => c.eq('stripeAccountId', accountId),
      }),
    );
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [stripeAccountEntity, workerEntity], writes: [stripeAccountEntity, workerEntity] });
