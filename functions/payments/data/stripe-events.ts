import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { stripeEventEntity, type StripeEventItem } from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { putOf } from '../../common/data/expressions';
import { declareTableUse } from '../../../shared/entities';

/** Stripe retries for up to 3 days; remembered a little longer, then expired (TTL). */
const REMEMBER_SECONDS = 7 * 24 * 3600;

/** Webhook events already handled, by Stripe's event id. */
export const stripeEventsRepo = {
  async seen(eventId: string): Promise<boolean> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: stripeEventEntity.key(eventId), ConsistentRead: true }));
    return Boolean(out.Item);
  },

  async remember(eventId: string, type: string): Promise<void> {
    const item: StripeEventItem = {
      ...stripeEventEntity.key(eventId),
      entity: 'stripe-event',
      eventId,
      type,
      handledAt: new Date().toISOString(),
      expiresAt: Math.floor(Date.now() / 1000) + REMEMBER_SECONDS,
    };
    await dynamo.send(new PutCommand(putOf(stripeEventEntity, item)));
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [stripeEventEntity], writes: [stripeEventEntity] });
