import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { sessionEntity, type SessionItem, type SignInRole } from '../../../shared/entities';
import { dynamo, tableName } from '../clients';
import { deleteOf, isNew, putOf } from '../data/expressions';
import { deleteRowsOf } from './person-rows';
import { hashSecret, newSecret } from './tokens';
import { declareTableUse } from '../../../shared/entities';

export type { SessionItem } from '../../../shared/entities';

export type SessionRole = SignInRole;

/** What a live session tells about its holder: who, in which role, until when (never its keys or hash). */
export type Session = Pick<SessionItem, 'role' | 'subjectId' | 'username' | 'expiresAt'>;

export const SESSION_TTL_SECONDS: Record<SessionRole, number> = {
  admin: 12 * 60 * 60,
  worker: 7 * 24 * 60 * 60,
};

/**
 * Live sessions one person may hold at once; starting one more ends the oldest. A stolen password
 * or a script logging in over and over cannot pile up sessions, and a password change has a
 * handful to end, not thousands.
 */
export const SESSION_CAP: Record<SessionRole, number> = {
  admin: 5,
  worker: 10,
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The stored row of a session that `secret` names, started at `createdAt`. */
export function sessionItem(role: SessionRole, subjectId: string, username: string, secret: string, createdAt = new Date()): SessionItem {
  return {
    ...sessionEntity.key(hashSecret(secret)),
    ...sessionEntity.indexes.of.key(role, subjectId, createdAt.toISOString()),
    entity: 'session',
    role,
    subjectId,
    username,
    createdAt: createdAt.toISOString(),
    expiresAt: Math.floor(createdAt.getTime() / 1000) + SESSION_TTL_SECONDS[role],
  };
}

export const sessions = {
  /**
   * A new secret at every login; only its hash is stored, with a TTL. The oldest sessions past the
   * cap end before the new one is stored, so a failed store leaves none past the cap either.
   */
  async start(role: SessionRole, subjectId: string, username: string): Promise<{ secret: string; expiresAt: number }> {
    const secret = newSecret();
    const item = sessionItem(role, subjectId, username, secret);
    await deleteRowsOf(sessionEntity.indexes.of.range(role, subjectId), { spare: SESSION_CAP[role] - 1 });
    await dynamo.send(new PutCommand(putOf(sessionEntity, item, isNew)));
    return { secret, expiresAt: item.expiresAt };
  },

  /** The live session a secret names; expired rows count as none (TTL deletes them late). */
  async find(secret: string): Promise<Session | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: sessionEntity.key(hashSecret(secret)) }));
    const item = out.Item as SessionItem | undefined;
    if (!item || item.expiresAt <= nowSeconds()) return undefined;
    return { role: item.role, subjectId: item.subjectId, username: item.username, expiresAt: item.expiresAt };
  },

  async end(secret: string): Promise<void> {
    await dynamo.send(new DeleteCommand(deleteOf(sessionEntity, sessionEntity.key(hashSecret(secret)))));
  },

  /** Ends every session of a person but the one in use (after a password change), however many. */
  async endAllOf(role: SessionRole, subjectId: string, keepSecret?: string): Promise<void> {
    const keep = keepSecret ? [sessionEntity.key(hashSecret(keepSecret)).pk] : [];
    await deleteRowsOf(sessionEntity.indexes.of.range(role, subjectId), { keep });
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [sessionEntity], writes: [sessionEntity] });
