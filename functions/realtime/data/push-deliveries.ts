import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { pushDeliveryEntity, type PushDeliveryItem } from '../../../shared/entities';
import { dynamo } from '../../common/clients';
import { deleteOf, putOf, updateOf } from '../../common/data/expressions';
import { lostRace } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

/**
 * How long a claim holds while its push is being sent. A container that dies mid-send leaves the
 * claim behind; once it lapses, the stream's retry (or an operator's replay) sends the push after all.
 */
export const SENDING_LEASE_SECONDS = 60;
/** A delivered mark outlives the stream's 24 hours and the failed-batch replays of the runbook. */
const REMEMBER_SECONDS = 30 * 24 * 3600;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Pushes of urgent notifications: at most one delivery per notification, whatever redelivers the record. */
export const pushDeliveriesRepo = {
  /** Takes the notification's push for this run; false when it went out already or is going out now. */
  async claim(notificationId: string): Promise<boolean> {
    const now = nowSeconds();
    const claim: PushDeliveryItem = {
      ...pushDeliveryEntity.key(notificationId),
      entity: 'push-delivery',
      state: 'sending',
      leaseUntil: now + SENDING_LEASE_SECONDS,
      expiresAt: now + REMEMBER_SECONDS,
    };
    try {
      await dynamo.send(
        new PutCommand(putOf(pushDeliveryEntity, claim, (c) => c.or(c.notExists('pk'), c.and(c.eq('state', 'sending'), c.lt('leaseUntil', now))))),
      );
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  },

  async markSent(notificationId: string): Promise<void> {
    await dynamo.send(
      new UpdateCommand(
        updateOf(pushDeliveryEntity, pushDeliveryEntity.key(notificationId), {
          set: { state: 'sent', sentAt: new Date().toISOString() },
          remove: ['leaseUntil'],
        }),
      ),
    );
  },

  /** Gives the push back when it could not be attempted, so the retry sends it. */
  async release(notificationId: string): Promise<void> {
    await dynamo.send(new DeleteCommand(deleteOf(pushDeliveryEntity, pushDeliveryEntity.key(notificationId))));
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [pushDeliveryEntity], writes: [pushDeliveryEntity] });
