import { createHash } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { pushEndpointEntity, pushSubscriptionEntity, type PushEndpointItem, type PushSubscriptionItem } from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { ConflictError } from '../../common/errors';
import type { PushPerson } from '../push-caller';
import { conditionOf, deleteOf, isNew, putOf, updateOf } from '../../common/data/expressions';
import { queryAll } from '../../common/data/query';
import { writeTogether, WriteCancelled, type WriteAction } from '../../common/data/transact';
import { lostRace } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

export type { PushSubscriptionItem } from '../../../shared/entities';

/**
 * Web push subscriptions (stored schema: push_subscriptions). One item per person and endpoint,
 * under the person (so sending to someone is one Query), plus one entry per endpoint naming its
 * person (the browser's unsubscribe and verify send only the endpoint). Both are written together,
 * so an endpoint belongs to one person at a time: subscribing it for someone else moves it.
 * Endpoints are capability URLs; keys are by their SHA-256, and they are never logged.
 */
export interface NewPushSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent?: string;
  expirationTime?: number | null;
}

export function endpointHash(endpoint: string): string {
  return createHash('sha256').update(endpoint).digest('base64url');
}

/** The endpoint entry still names this person. */
function namesPerson(person: PushPerson) {
  return conditionOf(pushEndpointEntity, (c) => c.and(c.eq('role', person.role), c.eq('userId', person.userId)));
}

const samePerson = (a: PushPerson, b: PushPerson) => a.role === b.role && a.userId === b.userId;

async function personOfHash(hash: string): Promise<PushPerson | undefined> {
  const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: pushEndpointEntity.key(hash), ConsistentRead: true }));
  const item = out.Item as PushEndpointItem | undefined;
  return item ? { role: item.role, userId: item.userId } : undefined;
}

/** Both items of a subscription gone, if the endpoint still belongs to the person; false otherwise. */
async function removeHash(person: PushPerson, hash: string): Promise<boolean> {
  const current = await personOfHash(hash);
  if (!current || !samePerson(current, person)) return false;
  try {
    await writeTogether([
      { Delete: { ...deleteOf(pushEndpointEntity, pushEndpointEntity.key(hash)), ...namesPerson(person) } },
      { Delete: deleteOf(pushSubscriptionEntity, pushSubscriptionEntity.key(person.role, person.userId, hash)) },
    ]);
    return true;
  } catch (error) {
    // Moved to someone else (or removed) in the meantime: not this person's to remove any more.
    if (error instanceof WriteCancelled) return false;
    throw error;
  }
}

export const pushSubscriptionsRepo = {
  /**
   * Stores the browser's subscription for the person. Subscribing again replaces the keys; an
   * endpoint that belonged to someone else (another login in the same browser) moves to this person.
   */
  async save(person: PushPerson, input: NewPushSubscription, now: string): Promise<PushSubscriptionItem> {
    const hash = endpointHash(input.endpoint);
    const item: PushSubscriptionItem = {
      ...pushSubscriptionEntity.key(person.role, person.userId, hash),
      entity: 'push-subscription',
      role: person.role,
      userId: person.userId,
      endpointHash: hash,
      endpoint: input.endpoint,
      p256dhKey: input.p256dh,
      authKey: input.auth,
      ...(input.userAgent ? { userAgent: input.userAgent } : {}),
      ...(typeof input.expirationTime === 'number' ? { expirationTime: input.expirationTime } : {}),
      isActive: true,
      subscribedAt: now,
    };
    const entry: PushEndpointItem = { ...pushEndpointEntity.key(hash), entity: 'push-endpoint', role: person.role, userId: person.userId, endpointHash: hash };
    // A lost race against another save of the same endpoint reads the new owner and tries again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const previous = await personOfHash(hash);
      const actions: WriteAction[] = [
        { Put: previous ? { ...putOf(pushEndpointEntity, entry), ...namesPerson(previous) } : putOf(pushEndpointEntity, entry, isNew) },
        { Put: putOf(pushSubscriptionEntity, item) },
      ];
      if (previous && !samePerson(previous, person)) {
        actions.push({ Delete: deleteOf(pushSubscriptionEntity, pushSubscriptionEntity.key(previous.role, previous.userId, hash)) });
      }
      try {
        await writeTogether(actions);
        return item;
      } catch (error) {
        if (!(error instanceof WriteCancelled)) throw error;
      }
    }
    throw new ConflictError('This browser subscribed several times at once. Try again.');
  },

  /** Unsubscribes the endpoint if it is the person's; false when it is not stored for them. */
  async remove(person: PushPerson, endpoint: string): Promise<boolean> {
    return removeHash(person, endpointHash(endpoint));
  },

  /** The push service said the subscription is gone (404/410): forget it. */
  async forget(person: PushPerson, hash: string): Promise<boolean> {
    return removeHash(person, hash);
  },

  /** The person's subscription with this endpoint, if stored for them. */
  async find(person: PushPerson, endpoint: string): Promise<PushSubscriptionItem | undefined> {
    const out = await dynamo.send(
      new GetCommand({ TableName: tableName, Key: pushSubscriptionEntity.key(person.role, person.userId, endpointHash(endpoint)) }),
    );
    const item = out.Item as PushSubscriptionItem | undefined;
    return item && item.endpoint === endpoint ? item : undefined;
  },

  /** Whom an endpoint belongs to, if anyone. */
  async personOf(endpoint: string): Promise<PushPerson | undefined> {
    return personOfHash(endpointHash(endpoint));
  },

  /** Every subscription of the person (one per browser or device they enabled push on). */
  async listFor(person: PushPerson): Promise<PushSubscriptionItem[]> {
    return queryAll(pushSubscriptionEntity.range(person.role, person.userId));
  },

  /** The push service accepted a message for it. */
  async touch(item: Pick<PushSubscriptionItem, 'pk' | 'sk'>, now: string): Promise<void> {
    try {
      await dynamo.send(
        new UpdateCommand(updateOf(pushSubscriptionEntity, { pk: item.pk, sk: item.sk }, { set: { lastUsed: now }, if: (c) => c.exists('pk') })),
      );
    } catch (error) {
      // Unsubscribed meanwhile: nothing to mark.
      if (!lostRace(error)) throw error;
    }
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [pushEndpointEntity, pushSubscriptionEntity], writes: [pushEndpointEntity, pushSubscriptionEntity] });
