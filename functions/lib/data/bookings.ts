import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { bookingStatusOf, type JobState } from '../../../shared/domain/booking-status';
import type { Booking, BookingInput } from '../../../shared/schemas/booking';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';

interface BookingItem extends BookingInput {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  entity: 'booking';
  id: string;
  customerId: string;
  state: JobState;
  createdAt: string;
}

/** The public view: the customer id and storage keys never leave the server. */
export function toBooking(item: BookingItem): Booking {
  const { id, name, phone, address, category, details, createdAt } = item;
  return { id, name, phone, address, category, details, status: bookingStatusOf(item.state), createdAt };
}

export const bookingsRepo = {
  async create(input: { id: string; customerId: string; createdAt: string } & BookingInput): Promise<Booking> {
    const item: BookingItem = {
      ...keys.booking(input.id),
      ...keys.customerBookings(input.customerId, input.createdAt),
      entity: 'booking',
      state: 'booked',
      ...input,
    };
    // A 128-bit id never collides in practice; the condition makes "never" a guarantee.
    await dynamo.send(
      new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
    return toBooking(item);
  },

  async findById(id: string): Promise<Booking | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.booking(id) }));
    return out.Item ? toBooking(out.Item as BookingItem) : undefined;
  },
};
