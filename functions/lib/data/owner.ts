import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { CurrentUser } from '../../../shared/schemas/auth';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import { ConflictError } from '../errors';

export const ALREADY_SET_UP = 'The owner account is already set up. Log in instead.';

/** The one owner account (OWNER / OWNER). The password hash never leaves this module's callers. */
export interface OwnerItem {
  pk: string;
  sk: string;
  entity: 'owner';
  id: string;
  username: string;
  passwordHash: string;
  createdAt: string;
  updatedAt: string;
}

/** What the owner's screens may see: no hash, no keys. */
export function toOwnerUser(owner: Pick<OwnerItem, 'id' | 'username'>): CurrentUser {
  return { id: owner.id, role: 'admin', username: owner.username };
}

function lostRace(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || (error as Error)?.name === 'ConditionalCheckFailedException';
}

export const ownerRepo = {
  async find(): Promise<OwnerItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.owner(), ConsistentRead: true }));
    return out.Item as OwnerItem | undefined;
  },

  /** Setup happens once: the conditional put lets exactly one of two racing setups win. */
  async create(input: { id: string; username: string; passwordHash: string }): Promise<OwnerItem> {
    const now = new Date().toISOString();
    const item: OwnerItem = { ...keys.owner(), entity: 'owner', ...input, createdAt: now, updatedAt: now };
    try {
      await dynamo.send(
        new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
      );
    } catch (error) {
      if (lostRace(error)) throw new ConflictError(ALREADY_SET_UP);
      throw error;
    }
    return item;
  },

  /** Replaces the hash only if it is still the one the caller verified against. */
  async updatePasswordHash(id: string, expectedOldHash: string, newHash: string): Promise<void> {
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.owner(),
          UpdateExpression: 'SET passwordHash = :new, updatedAt = :now',
          ConditionExpression: 'id = :id AND passwordHash = :old',
          ExpressionAttributeValues: { ':id': id, ':old': expectedOldHash, ':new': newHash, ':now': new Date().toISOString() },
        }),
      );
    } catch (error) {
      if (lostRace(error)) {
        throw new ConflictError('The password was changed at the same time from elsewhere. Log in again and retry.');
      }
      throw error;
    }
  },
};
