import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { bookingStatusOf, type JobState } from '../../../shared/domain/booking-status';
import type { Booking, BookingInput } from '../../../shared/schemas/booking';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';
import type { WriteAction } from './transact';

export interface BookingItem extends BookingInput {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  entity: 'booking';
  id: string;
  customerId: string;
  /** The booking's job, which holds its progress. Bookings made before dispatch existed have none. */
  jobId?: string;
  state: JobState;
  createdAt: string;
}

/** The public view: the customer id, the job and storage keys never leave the server. */
export function toBooking(item: BookingItem, job?: { state: JobState; dispatch: Booking['dispatch'] }): Booking {
  const { id, name, phone, address, category, details, createdAt } = item;
  return { id, name, phone, address, category, details, status: bookingStatusOf(job?.state ?? item.state), dispatch: job?.dispatch ?? 'searching', createdAt };
}

export const bookingsRepo = {
  newItem(input: { id: string; customerId: string; createdAt: string; jobId: string } & BookingInput): BookingItem {
    return {
      ...keys.booking(input.id),
      ...keys.customerBookings(input.customerId, input.createdAt),
      entity: 'booking',
      state: 'booked',
      ...input,
    };
  },

  /** The write that creates the booking, to go together with its job's. */
  putAction(item: BookingItem): WriteAction {
    // A 128-bit id never collides in practice; the condition makes "never" a guarantee.
    return { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
  },

  async findById(id: string): Promise<BookingItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.booking(id) }));
    return out.Item as BookingItem | undefined;
  },
};
