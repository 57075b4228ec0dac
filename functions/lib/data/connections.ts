import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { CONNECTION_TTL_SECONDS, type RealtimeRole } from '../../../shared/realtime';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { batchGet } from './batch';
import { queryAll } from './query';

/**
 * /ws connections and their rooms (DESIGN.md sections 1 and 6). A connection knows who is behind
 * it (a browser may be a customer and a worker at once) and which rooms it joined; a room's members
 * are items of their own, so fan-out is one Query. Everything expires (TTL) a little after API
 * Gateway's two-hour connection limit, so a $disconnect that never came leaves nothing for long.
 */
export interface Identity {
  customerId?: string;
  workerId?: string;
  owner?: boolean;
}

export interface ConnectionItem extends Identity {
  pk: string;
  sk: string;
  entity: 'connection';
  connectionId: string;
  rooms: string[];
  connectedAt: string;
  /** The second (epoch) the message counter is for, and how many came in it. */
  windowSecond?: number;
  windowCount?: number;
  expiresAt: number;
}

const ttl = () => Math.floor(Date.now() / 1000) + CONNECTION_TTL_SECONDS;

/** The user channels of an identity: one per role it carries. */
export function userRooms(identity: Identity): string[] {
  const out: string[] = [];
  if (identity.customerId) out.push(userRoom('customer', identity.customerId));
  if (identity.workerId) out.push(userRoom('worker', identity.workerId));
  if (identity.owner) out.push(userRoom('owner', 'owner'));
  return out;
}

export function userRoom(role: RealtimeRole, id: string): string {
  return `user:${role}:${id}`;
}

function putMember(room: string, connectionId: string) {
  return dynamo.send(new PutCommand({ TableName: tableName, Item: { ...keys.roomMember(room, connectionId), entity: 'room-member', room, connectionId, expiresAt: ttl() } }));
}

export const connectionsRepo = {
  async open(connectionId: string, identity: Identity, now: string): Promise<ConnectionItem> {
    const rooms = userRooms(identity);
    const item: ConnectionItem = { ...keys.connection(connectionId), entity: 'connection', connectionId, ...identity, rooms, connectedAt: now, expiresAt: ttl() };
    await dynamo.send(new PutCommand({ TableName: tableName, Item: item }));
    await Promise.all(rooms.map((room) => putMember(room, connectionId)));
    return item;
  },

  async find(connectionId: string): Promise<ConnectionItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.connection(connectionId), ConsistentRead: true }));
    return out.Item as ConnectionItem | undefined;
  },

  /** Joins a room (again is harmless); only while the connection exists. */
  async join(connectionId: string, room: string): Promise<boolean> {
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.connection(connectionId),
          UpdateExpression: 'SET rooms = list_append(rooms, :room)',
          ConditionExpression: 'attribute_exists(pk) AND NOT contains(rooms, :name)',
          ExpressionAttributeValues: { ':room': [room], ':name': room },
        }),
      );
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      const current = await connectionsRepo.find(connectionId);
      if (!current) return false;
    }
    await putMember(room, connectionId);
    return true;
  },

  async leave(connectionId: string, room: string): Promise<void> {
    const current = await connectionsRepo.find(connectionId);
    if (current) {
      const rooms = current.rooms.filter((r) => r !== room);
      await dynamo.send(new UpdateCommand({ TableName: tableName, Key: keys.connection(connectionId), UpdateExpression: 'SET rooms = :rooms', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':rooms': rooms } })).catch(() => undefined);
    }
    await dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.roomMember(room, connectionId) }));
  },

  /** Forgets the connection and every membership it had. */
  async close(connectionId: string): Promise<void> {
    await connectionsRepo.closeMany([connectionId]);
  },

  /** Forgets many connections at once (the gone ones of a fan-out): one read, batched deletes. */
  async closeMany(connectionIds: readonly string[]): Promise<void> {
    if (connectionIds.length === 0) return;
    const found = await batchGet<ConnectionItem>(connectionIds.map((id) => keys.connection(id)), true);
    const deletes = [
      ...connectionIds.map((id) => keys.connection(id)),
      ...found.flatMap((c) => c.rooms.map((room) => keys.roomMember(room, c.connectionId))),
    ];
    await Promise.all(
      Array.from({ length: Math.ceil(deletes.length / 25) }, (_, i) =>
        dynamo.send(new BatchWriteCommand({ RequestItems: { [tableName]: deletes.slice(i * 25, i * 25 + 25).map((Key) => ({ DeleteRequest: { Key } })) } })),
      ),
    );
  },

  /** The connections in a room (a Query on the room's partition). */
  async members(room: string): Promise<string[]> {
    const items = await queryAll<{ connectionId: string }>({ pk: keys.roomMember(room).pk, skPrefix: 'CONN#', projection: 'connectionId' });
    return items.map((i) => i.connectionId);
  },

  /**
   * Counts a frame in its second and answers its place in that second (1 for the first). Every
   * frame is counted by exactly one successful conditional update, so a burst of frames handled at
   * once (API Gateway invokes $default concurrently) gets places 1, 2, 3, ... and the limit holds:
   * the increment applies while the stored window is this second (or a later one, when this frame
   * was delayed); otherwise the reset starts this second's window at 1. A frame that loses the
   * reset to another frame of the same burst has not been counted yet, so it tries the increment
   * again rather than taking a place it did not win. The two conditions are each other's opposite
   * and the window only moves forward, so this ends within two rounds; a third finding neither
   * true means the connection is gone: Infinity, nothing to count or answer.
   */
  async countMessage(connectionId: string, second: number): Promise<number> {
    for (let round = 0; round < 3; round++) {
      try {
        const out = await dynamo.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.connection(connectionId),
            UpdateExpression: 'ADD windowCount :one',
            ConditionExpression: 'windowSecond >= :s',
            ExpressionAttributeValues: { ':one': 1, ':s': second },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        return out.Attributes?.windowCount as number;
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      }
      try {
        await dynamo.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.connection(connectionId),
            UpdateExpression: 'SET windowSecond = :s, windowCount = :one',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(windowSecond) OR windowSecond < :s)',
            ExpressionAttributeValues: { ':one': 1, ':s': second },
          }),
        );
        return 1;
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      }
    }
    return Number.POSITIVE_INFINITY;
  },
};
