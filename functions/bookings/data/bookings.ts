import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { bookingStatusOf, type JobState } from '../../../shared/domain/booking-status';
import { bookingEntity, type BookingItem } from '../../../shared/entities';
import type { Booking, BookingInput } from '../../../shared/schemas/booking';
import { townOf } from '../../../shared/domain/town';
import { dynamo, tableName } from '../../common/clients';
import { isNew, putOf } from '../../common/data/expressions';
import type { WriteAction } from '../../common/data/transact';
import { declareTableUse } from '../../../shared/entities';

export type { BookingItem } from '../../../shared/entities';

/**
 * The booking as its answers show it: the customer id, the job and storage keys never leave the
 * server, and the customer's own details only when `personal` (their own cookie, the owner).
 */
export function toBooking(item: BookingItem, job?: { state: JobState; dispatch: Booking['dispatch'] }, personal = true): Booking {
  const { id, name, phone, address, category, details, createdAt } = item;
  const own = personal ? { name, phone, address, details } : {};
  return { id, ...own, town: townOf(address), category, status: bookingStatusOf(job?.state ?? item.state), dispatch: job?.dispatch ?? 'searching', createdAt };
}

export const bookingsRepo = {
  newItem(input: { id: string; customerId: string; createdAt: string; jobId: string } & BookingInput): BookingItem {
    return {
      ...bookingEntity.key(input.id),
      ...bookingEntity.indexes.customerBookings.key(input.customerId, input.createdAt),
      entity: 'booking',
      state: 'booked',
      ...input,
    };
  },

  /** The write that creates the booking, to go together with its job's. */
  putAction(item: BookingItem): WriteAction {
    // A 128-bit id never collides in practice; the condition makes "never" a guarantee.
    return { Put: putOf(bookingEntity, item, isNew) };
  },

  async findById(id: string): Promise<BookingItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: bookingEntity.key(id) }));
    return out.Item as BookingItem | undefined;
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [bookingEntity], writes: [bookingEntity] });
