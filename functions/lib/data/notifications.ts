import { QueryCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_NOTIFICATIONS_SHOWN, NOTIFICATION_TTL_SECONDS, type NotificationView, type RealtimeRole } from '../../../shared/realtime';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';

/** A person's notifications (worker-owner spec section 3), kept 30 days (TTL), newest shown first. */
export interface NotificationItem extends NotificationView {
  pk: string;
  sk: string;
  entity: 'notification';
  /** Whom it is for, as plain attributes: the stream consumer that pushes it reads them (deliver-push). */
  recipientRole: RealtimeRole;
  recipientId: string;
  expiresAt: number;
}

export type NewNotification = Omit<NotificationView, 'id' | 'timestamp' | 'read'>;

export const notificationsRepo = {
  async add(role: RealtimeRole, userId: string, input: NewNotification & { id: string; timestamp: string }): Promise<NotificationView> {
    const item: NotificationItem = {
      ...keys.notification(role, userId, input.timestamp, input.id),
      entity: 'notification',
      recipientRole: role,
      recipientId: userId,
      ...input,
      read: false,
      expiresAt: Math.floor(Date.parse(input.timestamp) / 1000) + NOTIFICATION_TTL_SECONDS,
    };
    await dynamo.send(new PutCommand({ TableName: tableName, Item: item }));
    return toView(item);
  },

  /** The latest ones, newest first (at most what the panel keeps). */
  async latest(role: RealtimeRole, userId: string, limit = MAX_NOTIFICATIONS_SHOWN): Promise<NotificationView[]> {
    const out = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': keys.notification(role, userId).pk, ':sk': 'NOTIF#' },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    const now = Math.floor(Date.now() / 1000);
    // DynamoDB deletes expired items late (and dynalite never): they are not shown.
    return ((out.Items ?? []) as NotificationItem[]).filter((i) => i.expiresAt > now).map(toView);
  },

  /** notification:ack: read, by its id, among the person's own (the sort key carries the time). */
  async acknowledge(role: RealtimeRole, userId: string, notificationId: string): Promise<boolean> {
    const mine = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        FilterExpression: 'id = :id',
        ExpressionAttributeValues: { ':pk': keys.notification(role, userId).pk, ':sk': 'NOTIF#', ':id': notificationId },
      }),
    );
    const item = mine.Items?.[0] as NotificationItem | undefined;
    if (!item) return false;
    await dynamo.send(new UpdateCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk }, UpdateExpression: 'SET #read = :true', ExpressionAttributeNames: { '#read': 'read' }, ExpressionAttributeValues: { ':true': true } }));
    return true;
  },
};

function toView(item: NotificationItem): NotificationView {
  return { id: item.id, type: item.type, title: item.title, message: item.message, priority: item.priority, actionUrl: item.actionUrl, jobId: item.jobId, timestamp: item.timestamp, read: item.read };
}
