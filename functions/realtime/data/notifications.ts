import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { notificationEntity, type NotificationItem } from '../../../shared/entities';
import { MAX_NOTIFICATIONS_SHOWN, NOTIFICATION_TTL_SECONDS, type NotificationView, type RealtimeRole } from '../../../shared/realtime';
import { dynamo } from '../../common/clients';
import { putOf, updateOf } from '../../common/data/expressions';
import { queryAll } from '../../common/data/query';
import { declareTableUse } from '../../../shared/entities';

export type { NotificationItem } from '../../../shared/entities';

export type NewNotification = Omit<NotificationView, 'id' | 'timestamp' | 'read'>;

export const notificationsRepo = {
  async add(role: RealtimeRole, userId: string, input: NewNotification & { id: string; timestamp: string }): Promise<NotificationView> {
    const item: NotificationItem = {
      ...notificationEntity.key(role, userId, input.timestamp, input.id),
      entity: 'notification',
      recipientRole: role,
      recipientId: userId,
      ...input,
      read: false,
      expiresAt: Math.floor(Date.parse(input.timestamp) / 1000) + NOTIFICATION_TTL_SECONDS,
    };
    await dynamo.send(new PutCommand(putOf(notificationEntity, item)));
    return toView(item);
  },

  /** The latest ones, newest first (at most what the panel keeps). */
  async latest(role: RealtimeRole, userId: string, limit = MAX_NOTIFICATIONS_SHOWN): Promise<NotificationView[]> {
    const items = await queryAll({ ...notificationEntity.range(role, userId), newestFirst: true, limit });
    const now = Math.floor(Date.now() / 1000);
    // DynamoDB deletes expired items late (and dynalite never): they are not shown.
    return items.filter((i) => i.expiresAt > now).map(toView);
  },

  /** notification:ack: read, by its id, among the person's own (the sort key carries the time). */
  async acknowledge(role: RealtimeRole, userId: string, notificationId: string): Promise<boolean> {
    const [item] = await queryAll({ ...notificationEntity.range(role, userId), filter: (c) => c.eq('id', notificationId) });
    if (!item) return false;
    await dynamo.send(new UpdateCommand(updateOf(notificationEntity, { pk: item.pk, sk: item.sk }, { set: { read: true } })));
    return true;
  },
};

function toView(item: NotificationItem): NotificationView {
  return { id: item.id, type: item.type, title: item.title, message: item.message, priority: item.priority, actionUrl: item.actionUrl, jobId: item.jobId, timestamp: item.timestamp, read: item.read };
}

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [notificationEntity], writes: [notificationEntity] });
