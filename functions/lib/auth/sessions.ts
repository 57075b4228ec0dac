import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { deleteRowsOf } from './person-rows';
import { hashSecret, newSecret } from './tokens';

export type SessionRole = 'admin' | 'worker';

export interface Session {
  role: SessionRole;
  subjectId: string;
  username: string;
  expiresAt: number;
}

export interface SessionItem extends Session {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  entity: 'session';
  createdAt: string;
}

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
    ...keys.session(hashSecret(secret)),
    ...keys.sessionsOf(role, subjectId, createdAt.toISOString()),
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
    await deleteRowsOf(item.gsi1pk, { spare: SESSION_CAP[role] - 1 });
    await dynamo.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return { secret, expiresAt: item.expiresAt };
  },

  /** The live session a secret names; expired rows count as none (TTL deletes them late). */
  async find(secret: string): Promise<Session | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.session(hashSecret(secret)) }));
    const item = out.Item as SessionItem | undefined;
    if (!item || item.expiresAt <= nowSeconds()) return undefined;
    return { role: item.role, subjectId: item.subjectId, username: item.username, expiresAt: item.expiresAt };
  },

  async end(secret: string): Promise<void> {
    await dynamo.send(new DeleteCommand({ TableName: tableName, Key: keys.session(hashSecret(secret)) }));
  },

  /** Ends every session of a person but the one in use (after a password change), however many. */
  async endAllOf(role: SessionRole, subjectId: string, keepSecret?: string): Promise<void> {
    const keep = keepSecret ? [keys.session(hashSecret(keepSecret)).pk] : [];
    await deleteRowsOf(keys.sessionsOf(role, subjectId).gsi1pk, { keep });
  },
};
