import { routeByName } from '../shared/routes';
import { bookingInputSchema } from '../shared/schemas/booking';
import { categories } from '../shared/categories';
import { bookingsRepo, toBooking } from './lib/data/bookings';
import { jobItem } from './lib/data/jobs';
import { customerFor } from './lib/customer';
import { createAndDispatch } from './lib/dispatch';
import { reply, http } from './lib/http';
import { newId } from './lib/ids';
import { logger } from './lib/logger';

/** A booking and its job, written together; dispatch starts at once. */
export const handler = http(routeByName('create-booking'), bookingInputSchema, async ({ body, event }) => {
  const customer = customerFor(event);
  const createdAt = new Date().toISOString();
  const booking = bookingsRepo.newItem({ ...body, id: newId(), jobId: newId(), customerId: customer.id, createdAt });
  const job = await createAndDispatch(
    jobItem({
      id: booking.jobId!,
      kind: 'booking',
      bookingId: booking.id,
      customerId: customer.id,
      category: body.category,
      service: categories.find((c) => c.slug === body.category)?.name ?? body.category,
      customerName: body.name,
      customerPhone: body.phone,
      address: body.address,
      description: body.details ?? '',
      createdAt,
    }),
    [bookingsRepo.putAction(booking)],
  );
  logger.info('Booking created', { bookingNumber: booking.id.slice(-8), category: booking.category });
  return reply(201, toBooking(booking, job), { cookies: customer.setCookie ? [customer.setCookie] : [] });
});
