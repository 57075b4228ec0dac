import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { realtimeRoles } from '../../shared/realtime';
import type { NotificationItem } from './data/notifications';
import { pushDeliveriesRepo } from './data/push-deliveries';
import { logger } from '../common/logger';
import { pushTo } from './push';
import { vapidPublicKey } from './push-config';

/** What a push shows of one stored notification, and whom it goes to. */
export interface UrgentNotification {
  /** The stored notification's id: one push per notification, however often its record comes. */
  id: string;
  role: NotificationItem['recipientRole'];
  userId: string;
  title: string;
  body: string;
  url: string;
  tag: string;
  urgency: 'normal' | 'high';
}

/**
 * The notification a stream record carries, if it is one to push. The event source mapping's
 * filter (shared/realtime/routes.ts urgentNotificationRecords) passes new high and critical
 * notifications among other records; this checks again, so a record that is anything else is ignored, never pushed.
 */
export function urgentNotification(record: DynamoDBRecord): UrgentNotification | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>) as Partial<NotificationItem>;
  if (item.entity !== 'notification' || (item.priority !== 'high' && item.priority !== 'critical')) return undefined;
  if (!item.recipientRole || !realtimeRoles.includes(item.recipientRole) || typeof item.recipientId !== 'string') return undefined;
  if (typeof item.title !== 'string' || typeof item.message !== 'string' || typeof item.id !== 'string') return undefined;
  return {
    id: item.id,
    role: item.recipientRole,
    userId: item.recipientId,
    title: item.title,
    body: item.message,
    url: typeof item.actionUrl === 'string' && item.actionUrl.startsWith('/') ? item.actionUrl : '/',
    // One per job on the device: a newer push about the same job replaces the older one.
    tag: typeof item.jobId === 'string' && item.jobId ? `job-${item.jobId}` : item.id,
    urgency: item.priority === 'critical' ? 'high' : 'normal',
  };
}

/**
 * Fed by the table's stream (its reader, functions/stream/follow-table-changes.ts, hands every record
 * over; this takes the urgent notifications among them): each new high or critical notification goes out as web push to
 * every browser its person enabled push on (functions/realtime/push.ts). A record whose push could not
 * be attempted (the subscriptions could not be read) is reported back so the stream retries it;
 * a push service refusing one browser is not a reason to retry the others. Each notification is
 * pushed once: the stream's retries of a partly failed batch and an operator replaying a failed
 * batch (npm run replay) find it delivered and skip it.
 */
export async function deliverPush(event: Pick<DynamoDBStreamEvent, 'Records'>): Promise<DynamoDBBatchResponse> {
  const urgent = event.Records.filter((record) => urgentNotification(record) !== undefined);
  // A batch of other records (tallies) asks nothing of push: not even its keys are read.
  if (!urgent.length) return { batchItemFailures: [] };
  let configured: boolean;
  try {
    configured = Boolean(await vapidPublicKey());
  } catch (error) {
    // The VAPID secret could not be read: no push could be attempted, so the stream tries them all again.
    logger.warn('Push keys unreadable: the batch is retried', { records: urgent.length, errorName: (error as Error)?.name });
    return { batchItemFailures: urgent.flatMap((r) => (r.dynamodb?.SequenceNumber ? [{ itemIdentifier: r.dynamodb.SequenceNumber }] : [])) };
  }
  if (!configured) {
    logger.warn('Push not configured: urgent notifications stay in the notification centre only', { records: urgent.length });
    return { batchItemFailures: [] };
  }
  const failures: DynamoDBBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    urgent.map(async (record) => {
      const notification = urgentNotification(record);
      if (!notification) return;
      const { id, role, userId, urgency, ...payload } = notification;
      try {
        if (!(await pushDeliveriesRepo.claim(id))) {
          logger.info('Push already delivered', { role });
          return;
        }
        try {
          await pushTo(role, userId, payload, { urgency });
        } catch (error) {
          await pushDeliveriesRepo.release(id);
          throw error;
        }
        await pushDeliveriesRepo.markSent(id);
      } catch (error) {
        logger.warn('Push failed', { role, errorName: (error as Error)?.name });
        if (record.dynamodb?.SequenceNumber) failures.push({ itemIdentifier: record.dynamodb.SequenceNumber });
      }
    }),
  );
  return { batchItemFailures: failures };
}
