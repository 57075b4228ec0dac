import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { connectionEntity, roomMemberEntity, type ConnectionItem, type Identity, type RoomMemberItem } from '../../../shared/entities';
import { CONNECTION_TTL_SECONDS, type RealtimeRole } from '../../../shared/realtime';
import { dynamo, tableName } from '../../common/clients';
import { batchGet, batchWrite } from '../../common/data/batch';
import { deleteOf, listAppend, putOf, updateOf } from '../../common/data/expressions';
import { queryAll } from '../../common/data/query';
import { applyUpdate, lostRace } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

export type { ConnectionItem, Identity } from '../../../shared/entities';

/**
 * /ws connections and their rooms. A connection knows who is behind it (a browser may be a customer
 * and a worker at once) and which rooms it joined; a room's members are items of their own, so
 * fan-out is one Query. Everything expires (TTL) a little after API Gateway's two-hour connection
 * limit, so a $disconnect that never came leaves nothing for long.
 */
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
  const member: RoomMemberItem = { ...roomMemberEntity.key(room, connectionId), entity: 'room-member', room, connectionId, expiresAt: ttl() };
  return dynamo.send(new PutCommand(putOf(roomMemberEntity, member)));
}

export const connectionsRepo = {
  async open(connectionId: string, identity: Identity, now: string): Promise<ConnectionItem> {
    const rooms = userRooms(identity);
    const item: ConnectionItem = { ...connectionEntity.key(connectionId), entity: 'connection', connectionId, ...identity, rooms, connectedAt: now, expiresAt: ttl() };
    await dynamo.send(new PutCommand(putOf(connectionEntity, item)));
    await Promise.all(rooms.map((room) => putMember(room, connectionId)));
    return item;
  },

  async find(connectionId: string): Promise<ConnectionItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: connectionEntity.key(connectionId), ConsistentRead: true }));
    return out.Item as ConnectionItem | undefined;
  },

  /** Joins a room (again is harmless); only while the connection exists. */
  async join(connectionId: string, room: string): Promise<boolean> {
    try {
      await dynamo.send(
        new UpdateCommand(
          updateOf(connectionEntity, connectionEntity.key(connectionId), {
            set: { rooms: listAppend([room]) },
            if: (c) => c.and(c.exists('pk'), c.not(c.contains('rooms', room))),
          }),
        ),
      );
    } catch (error) {
      if (!lostRace(error)) throw error;
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
      await dynamo
        .send(new UpdateCommand(updateOf(connectionEntity, connectionEntity.key(connectionId), { set: { rooms }, if: (c) => c.exists('pk') })))
        .catch(() => undefined);
    }
    await dynamo.send(new DeleteCommand(deleteOf(roomMemberEntity, roomMemberEntity.key(room, connectionId))));
  },

  /** Forgets the connection and every membership it had. */
  async close(connectionId: string): Promise<void> {
    await connectionsRepo.closeMany([connectionId]);
  },

  /** Forgets many connections at once (the gone ones of a fan-out): one read, batched deletes. */
  async closeMany(connectionIds: readonly string[]): Promise<void> {
    if (connectionIds.length === 0) return;
    const found = await batchGet<ConnectionItem>(connectionIds.map((id) => connectionEntity.key(id)), true);
    const deletes = [
      ...connectionIds.map((id) => connectionEntity.key(id)),
      ...found.flatMap((c) => c.rooms.map((room) => roomMemberEntity.key(room, c.connectionId))),
    ];
    await batchWrite([], deletes);
  },

  /** The connections in a room (a Query on the room's partition). */
  async members(room: string): Promise<string[]> {
    const items = await queryAll<{ connectionId: string }>({ ...roomMemberEntity.range(room), projection: 'connectionId' });
    return items.map((i) => i.connectionId);
  },

  /**
   * Counts a frame in its second and answers its place in that second (1 for the first), starting
   * from the connection as this frame's handler read it. What was read picks the one write that
   * normally succeeds: the increment while the stored window is this second (or a later one, when
   * this frame was delayed), the reset that starts this second's window at 1 otherwise. So a frame
   * costs one write, and a condition fails only on a real race: frames handled at once (API Gateway
   * invokes $default concurrently) that all read the window before any of them wrote. Every frame
   * is still counted by exactly one successful conditional update, so such a burst gets places 1,
   * 2, 3, ... and the limit holds. A frame that loses the reset to another frame of the burst has
   * not been counted yet, so it tries the increment rather than taking a place it did not win. The
   * two conditions are each other's opposite and the window only moves forward, so the increment
   * that follows a lost reset holds, and at most three tries are needed; none holding means the
   * connection is gone: Infinity, nothing to count or answer.
   */
  async countMessage(seen: Pick<ConnectionItem, 'connectionId' | 'windowSecond'>, second: number): Promise<number> {
    const key = connectionEntity.key(seen.connectionId);
    const increment = async () => {
      const counted = await applyUpdate(updateOf(connectionEntity, key, { add: { windowCount: 1 }, if: (c) => c.ge('windowSecond', second) }));
      return counted.windowCount!;
    };
    const reset = async () => {
      await dynamo.send(
        new UpdateCommand(
          updateOf(connectionEntity, key, {
            set: { windowSecond: second, windowCount: 1 },
            if: (c) => c.and(c.exists('pk'), c.or(c.notExists('windowSecond'), c.lt('windowSecond', second))),
          }),
        ),
      );
      return 1;
    };
    const tries = seen.windowSecond !== undefined && seen.windowSecond >= second ? [increment, reset, increment] : [reset, increment];
    for (const attempt of tries) {
      try {
        return await attempt();
      } catch (error) {
        if (!lostRace(error)) throw error;
      }
    }
    return Number.POSITIVE_INFINITY;
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [connectionEntity, roomMemberEntity], writes: [connectionEntity, roomMemberEntity] });
