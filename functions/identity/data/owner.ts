import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ownerEntity, type OwnerItem } from '../../../shared/entities';
import type { CurrentUser } from '../../../shared/schemas/auth';
import { dynamo, tableName } from '../../common/clients';
import { ConflictError } from '../../common/errors';
import { isNew, putOf, updateOf } from '../../common/data/expressions';
import { lostRace, tryUpdate } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

export type { OwnerItem } from '../../../shared/entities';

export const ALREADY_SET_UP = 'The owner account is already set up. Log in instead.';

/** What the owner's screens may see: no hash, no keys. */
export function toOwnerUser(owner: Pick<OwnerItem, 'id' | 'username'>): CurrentUser {
  return { id: owner.id, role: 'admin', username: owner.username };
}

export const ownerRepo = {
  async find(): Promise<OwnerItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: ownerEntity.key(), ConsistentRead: true }));
    return out.Item as OwnerItem | undefined;
  },

  /** Setup happens once: the conditional put lets exactly one of two racing setups win. */
  async create(input: { id: string; username: string; passwordHash: string; email?: string }): Promise<OwnerItem> {
    const now = new Date().toISOString();
    const item: OwnerItem = { ...ownerEntity.key(), entity: 'owner', ...input, createdAt: now, updatedAt: now };
    try {
      await dynamo.send(new PutCommand(putOf(ownerEntity, item, isNew)));
    } catch (error) {
      if (lostRace(error)) throw new ConflictError(ALREADY_SET_UP);
      throw error;
    }
    return item;
  },

  /** Replaces the hash only if it is still the one the caller verified against. */
  async updatePasswordHash(id: string, expectedOldHash: string, newHash: string): Promise<void> {
    const changed = await tryUpdate(
      updateOf(ownerEntity, ownerEntity.key(), {
        set: { passwordHash: newHash, updatedAt: new Date().toISOString() },
        if: (c) => c.and(c.eq('id', id), c.eq('passwordHash', expectedOldHash)),
      }),
    );
    if (!changed) throw new ConflictError('The password was changed at the same time from elsewhere. Log in again and retry.');
  },

  /**
   * Sets the owner's email (lower-case), only while the password is still the one the caller
   * verified: the address decides where a reset link goes, so a password changed meanwhile wins.
   */
  async setEmail(id: string, expectedHash: string, email: string): Promise<void> {
    const changed = await tryUpdate(
      updateOf(ownerEntity, ownerEntity.key(), {
        set: { email: email.trim().toLowerCase(), updatedAt: new Date().toISOString() },
        if: (c) => c.and(c.eq('id', id), c.eq('passwordHash', expectedHash)),
      }),
    );
    if (!changed) throw new ConflictError('The password was changed at the same time from elsewhere. Log in again and retry.');
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [ownerEntity], writes: [ownerEntity] });
