import type { JobState } from '../domain/booking-status';
import type { BookingInput } from '../schemas/booking';
import { defineEntity, on } from './define';

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

/** A booking; gsi1 CUSTOMER#<customer> / BOOKING#<createdAt>: a customer's bookings, newest last. */
export const bookingEntity = defineEntity<BookingItem>()({
  name: 'booking',
  key: (id: string) => ({ pk: `BOOKING#${id}`, sk: 'BOOKING' }),
  indexes: {
    customerBookings: on('gsi1', (customerId: string, createdAt = '') => ({ gsi1pk: `CUSTOMER#${customerId}`, gsi1sk: `BOOKING#${createdAt}` })),
  },
  membership: {
    customerBookings: { uses: ['customerId', 'createdAt'], args: (b) => [b.customerId, b.createdAt] },
  },
});
