import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { hashSecret, newSecret } from './tokens';

export type SessionRole = 'admin' | 'worker';

export interface Session {
  role: SessionRole;
  subjectId: string;
  username: string;
  expiresAt: number;
}

interface SessionItem extends Session {
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

const nowSeconds = () => Math.floor(Date.now() / 1000);

export const sessions = {
  /** A new secret at every login; only its hash is stored, with a TTL. */
  async start(role: SessionRole, subjectId: string, username: string): Promise<{ secret: string; expiresAt: number }> {
    const secret = newSecret();
    const createdAt = new Date().toISOString();
    const expiresAt = nowSeconds() + SESSION_TTL_SECONDS[role];
    const item: SessionItem = {
      ...keys.session(hashSecret(secret)),
      ...keys.sessionsOf(role, subjectId, createdAt),
      entity: 'session',
      role,
      subjectId,
      username,
      createdAt,
      expiresAt,
    };
    await dynamo.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return { secret, expiresAt };
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

  /** Ends every session of a person but the one in use (after a password change). */
  async endAllOf(role: SessionRole, subjectId: string, keepSecret?: string): Promise<void> {
    const keep = keepSecret ? keys.session(hashSecret(keepSecret)).pk : undefined;
    const out = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.sessionsOf(role, subjectId).gsi1pk },
        ProjectionExpression: 'pk, sk',
      }),
    );
    const doomed = (out.Items ?? []).filter((i) => i.pk !== keep);
    for (let i = 0; i < doomed.length; i += 25) {
      await dynamo.send(
        new BatchWriteCommand({
          RequestItems: {
            [tableName]: doomed.slice(i, i + 25).map((k) => ({ DeleteRequest: { Key: { pk: k.pk, sk: k.sk } } })),
          },
        }),
      );
    }
  },
};
