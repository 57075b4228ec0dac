import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';

/**
 * How long a claim holds while its push is being sent. A container that dies mid-send leaves the
 * claim behind; once it lapses, the stream's retry (or an operator's replay) sends the push after all.
 */
export const SENDING_LEASE_SECONDS = 60;
/** A delivered mark outlives the stream's 24 hours and the failed-batch replays of the runbook. */
const REMEMBER_SECONDS = 30 * 24 * 3600;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Pushes of urgent notifications: at most one delivery per notification, whatever redelivers the record. */
export const pushDeliveriesRepo = {
  /** Takes the notification's push for this run; false when it went out already or is going out now. */
  async claim(notificationId: string): Promise<boolean> {
    const now = nowSeconds();
    try {
      await dynamo.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.pushDelivery(notificationId), entity: 'push-delivery', state: 'sending', leaseUntil: now + SENDING_LEASE_SECONDS, expiresAt: now + REMEMBER_SECONDS },
          ConditionExpression: 'attribute_not_exists(pk) OR (#state = :sending AND leaseUntil < :now)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':sending': 'sending', ':now': now },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  },

  async markSent(notificationId: string): Promise<void> {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.pushDelivery(notificationId),
        UpdateExpression: 'SET #state = :sent, sentAt = :at REMOVE leaseUntil',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sent': 'sent', ':at': new Date().toISOString() },
      }),
    );
  },

  /** Gives the push back when it could not be attempted, so the retry sends it. */
  async release(notificationId: string): Promise<void> {
    await dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.pushDelivery(notificationId) }));
  },
};
