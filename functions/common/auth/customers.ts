import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { bookingEntity, customerEmailEntity, customerEntity, customerKeyEntity, type CustomerEmailItem, type CustomerItem, type CustomerKeyItem } from '../../../shared/entities';
import { dynamo, tableName } from '../clients';
import { newId } from '../ids';
import { conditionOf, ifNotExists, isNew, putOf, updateOf } from '../data/expressions';
import { queryAll } from '../data/query';
import { WriteCancelled, writeTogether } from '../data/transact';
import { declareTableUse } from '../../../shared/entities';

/**
 * How many gathered identities a cookie is followed through. Each merge points at an identity that
 * is gathered into nobody, so a chain grows by one only when a canonical identity is itself later
 * gathered (its browser proved another address that already had one): a handful at most.
 */
export const MAX_MERGE_HOPS = 5;

/** A retry comes within minutes of its first call; a day covers a person pressing again tomorrow. */
const KEY_TTL_SECONDS = 24 * 60 * 60;

const epochSeconds = () => Math.floor(Date.now() / 1000);

function identityItem(id: string): CustomerItem {
  return { ...customerEntity.key(id), entity: 'customer', id, issuedAt: new Date().toISOString() };
}

/** Customer identities: issued by the server only, random, and stored, so a client cannot choose one. */
export const customersRepo = {
  async issue(): Promise<string> {
    const item = identityItem(newId());
    await dynamo.send(new PutCommand(putOf(customerEntity, item, isNew)));
    return item.id;
  },

  /** Records an identity under an id the caller names: only the local runtime's dev-login does. */
  async issueAs(id: string): Promise<void> {
    await dynamo.send(new PutCommand(putOf(customerEntity, identityItem(id))));
  },

  /**
   * The identity a first-time visitor's Idempotency-Key minted, minting it on the first call: the
   * retry of a call whose answer (and cookie) was lost finds the same customer, and so the same
   * items, while the id itself stays random rather than computable from the key.
   */
  async issueForKey(keyHash: string): Promise<string> {
    const item = identityItem(newId());
    const byKey: CustomerKeyItem = { ...customerKeyEntity.key(keyHash), entity: 'customer-key', customerId: item.id, expiresAt: epochSeconds() + KEY_TTL_SECONDS };
    try {
      await writeTogether([{ Put: putOf(customerEntity, item, isNew) }, { Put: putOf(customerKeyEntity, byKey, isNew) }]);
      return item.id;
    } catch (error) {
      if (!(error instanceof WriteCancelled) || !error.refusedAt(1)) throw error;
      // A concurrent first call may still be committing: read strongly, and once more after a beat.
      for (let attempt = 0; attempt < 3; attempt++) {
        const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: customerKeyEntity.key(keyHash), ConsistentRead: true }));
        const customerId = (out.Item as CustomerKeyItem | undefined)?.customerId;
        if (customerId) return customerId;
        await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
      }
      throw error;
    }
  },

  /**
   * Whether the server issued this id. Identities issued before they were stored are recognised by
   * what they own (a booking, request or invoice on their index): only the server ever wrote items
   * under a customer id, so owning one proves the server issued it. Read-only, so routes with a
   * read grant can ask too.
   */
  async isIssued(id: string): Promise<boolean> {
    return (await customersRepo.identity(id)) !== undefined;
  },

  /**
   * The identity a cookie's id acts as: itself, or, when it was gathered into another ("Find my
   * requests"), the one it was gathered into, followed at most MAX_MERGE_HOPS times. Undefined for
   * an id the server never issued (or a chain longer than any merge makes). Read-only.
   */
  async resolve(id: string, consistent = false): Promise<string | undefined> {
    return (await customersRepo.chain(id, consistent))?.at(-1);
  },

  /** The ids from `id` to the identity it acts as, that one last (see resolve). */
  async chain(id: string, consistent = false): Promise<string[] | undefined> {
    const ids: string[] = [];
    let current: string | undefined = id;
    for (let hop = 0; hop <= MAX_MERGE_HOPS && current; hop++) {
      if (ids.includes(current)) return undefined;
      const found = await customersRepo.identity(current, consistent);
      if (!found) return undefined;
      ids.push(current);
      if (!found.mergedInto) return ids;
      current = found.mergedInto;
    }
    return undefined;
  },

  /**
   * Gathers identity `from` into `into`: a cookie naming `from` acts as `into` from now on. Only
   * when `into` is itself gathered into nobody (so no chain ever loops), and `from` into nobody
   * yet. An identity recognised only by what it owns gets its item here. False when refused.
   */
  async markMerged(from: string, into: string): Promise<boolean> {
    try {
      await writeTogether([
        {
          Update: updateOf(customerEntity, customerEntity.key(from), {
            set: { entity: 'customer', id: from, issuedAt: ifNotExists(new Date().toISOString()), mergedInto: into, mergedAt: new Date().toISOString() },
            if: (c) => c.notExists('mergedInto'),
          }),
        },
        // `into` was resolved just before (issued, perhaps before identities were stored: no item).
        { ConditionCheck: { Key: customerEntity.key(into), ...conditionOf(customerEntity, (c) => c.notExists('mergedInto')), TableName: tableName } },
      ]);
      return true;
    } catch (error) {
      if (error instanceof WriteCancelled && (error.refusedAt(0) || error.refusedAt(1))) return false;
      throw error;
    }
  },

  /** The stored identity, or for an id issued before identities were stored, a bare one (it owns something). */
  async identity(id: string, consistent = false): Promise<Pick<CustomerItem, 'id' | 'mergedInto'> | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: customerEntity.key(id), ConsistentRead: consistent }));
    const item = out.Item as CustomerItem | undefined;
    if (item) return { id, ...(item.mergedInto ? { mergedInto: item.mergedInto } : {}) };
    // The customer's whole partition (bookings, requests and invoices alike), not one sort prefix.
    const owned = await queryAll({ ...bookingEntity.indexes.customerBookings.range(id), sk: undefined, limit: 1, projection: 'pk' });
    return owned.length > 0 ? { id } : undefined;
  },
};

/**
 * The put that records that `customerId` made something with `email`, for the transaction that
 * stores what it made (a booking, request or hire). Unconditional: a second use only moves `at`.
 */
export function customerEmailPut(email: string, customerId: string) {
  const item: CustomerEmailItem = {
    ...customerEmailEntity.key(email, customerId),
    entity: 'customer-email',
    email: email.trim().toLowerCase(),
    customerId,
    at: new Date().toISOString(),
  };
  return { Put: putOf(customerEmailEntity, item) };
}

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [bookingEntity, customerEmailEntity, customerEntity, customerKeyEntity], writes: [bookingEntity, customerEmailEntity, customerEntity, customerKeyEntity] });
