import { ApiGatewayManagementApiClient, DeleteConnectionCommand, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { frame, rooms, type RealtimeRole, type ServerEvent, type ServerEvents } from '../../shared/realtime';
import { connectionsRepo, userRoom } from './data/connections';
import { notificationsRepo, type NewNotification } from './data/notifications';
import { env } from '../common/env';
import { newId } from '../common/ids';
import { logger } from '../common/logger';

/**
 * The one adapter for /ws delivery: frames posted to connections through the
 * API Gateway management API (locally the runtime's @connections endpoint). Delivery is best
 * effort and never fails the call that caused it: the state change is already written, and the
 * screens' polling is the fallback. A connection that answers 410 Gone is forgotten on the spot.
 */
let client: ApiGatewayManagementApiClient | undefined;

function management(): ApiGatewayManagementApiClient | undefined {
  if (!env.WEBSOCKET_ENDPOINT) return undefined;
  client ??= new ApiGatewayManagementApiClient({ region: env.AWS_REGION, endpoint: env.WEBSOCKET_ENDPOINT, cacheMiddleware: true });
  return client;
}

function gone(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'GoneException' || e?.$metadata?.httpStatusCode === 410;
}

async function post(api: ApiGatewayManagementApiClient, connectionId: string, data: Uint8Array): Promise<'sent' | 'gone'> {
  try {
    await api.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: data }));
    return 'sent';
  } catch (error) {
    if (gone(error)) return 'gone';
    throw error;
  }
}

/** Sends one frame to one connection; false (and forgotten) when it is gone. */
export async function sendTo(connectionId: string, data: string): Promise<boolean> {
  const api = management();
  if (!api) return false;
  const outcome = await post(api, connectionId, new TextEncoder().encode(data));
  if (outcome === 'gone') await connectionsRepo.close(connectionId);
  return outcome === 'sent';
}

/** Ends a connection from the server side (e.g. throttled past patience). */
export async function disconnect(connectionId: string): Promise<void> {
  await management()?.send(new DeleteConnectionCommand({ ConnectionId: connectionId })).catch(() => undefined);
}

export interface Delivery {
  delivered: number;
  pruned: number;
}

/** One event to every connection in a room, all at once; stale connections pruned in the same pass. */
export async function publish<E extends ServerEvent>(room: string, event: E, data: ServerEvents[E]): Promise<Delivery> {
  const result: Delivery = { delivered: 0, pruned: 0 };
  const api = management();
  if (!api) return result;
  try {
    const members = await connectionsRepo.members(room);
    const bytes = new TextEncoder().encode(frame(event, data));
    const outcomes = await Promise.allSettled(members.map((id) => post(api, id, bytes)));
    const gone: string[] = [];
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'rejected') logger.warn('Realtime delivery failed', { event, errorName: (outcome.reason as Error)?.name });
      else if (outcome.value === 'sent') result.delivered++;
      else gone.push(members[i]!);
    });
    // The gone ones are forgotten together, after everyone else already has the frame.
    await connectionsRepo.closeMany(gone);
    result.pruned = gone.length;
  } catch (error) {
    logger.warn('Realtime publish failed', { event, errorName: (error as Error)?.name });
  }
  return result;
}

export const publishToJob = <E extends ServerEvent>(jobId: string, event: E, data: ServerEvents[E]) => publish(rooms.job(jobId), event, data);

/**
 * A notification for one person: stored (the panel's history and the batch on connect) and sent
 * live to their channel. A high or critical one also goes out as web push: the stored notification
 * is the outbox, and the table's stream hands it to deliver-push (shared/routes.ts streamConsumers),
 * so the call that caused it neither loads web-push nor waits on push services.
 */
export async function notify(role: RealtimeRole, userId: string, input: NewNotification): Promise<void> {
  try {
    const stored = await notificationsRepo.add(role, userId, { ...input, id: newId(), timestamp: new Date().toISOString() });
    await publish(userRoom(role, userId), 'notification', stored);
  } catch (error) {
    logger.warn('Notification failed', { type: input.type, errorName: (error as Error)?.name });
  }
}
