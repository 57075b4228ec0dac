import { routeByName } from '../shared/routes';
import { bookingsRepo } from './lib/data/bookings';
import { customerFor } from './lib/customer';
import { reply, http } from './lib/http';
import { newId } from './lib/ids';
import { logger } from './lib/logger';

export const handler = http(routeByName('create-booking'), async ({ body, event }) => {
  const customer = customerFor(event);
  const booking = await bookingsRepo.create({
    ...body,
    id: newId(),
    customerId: customer.id,
    createdAt: new Date().toISOString(),
  });
  logger.info('Booking created', { bookingNumber: booking.id.slice(-8), category: booking.category });
  return reply(201, booking, { cookies: customer.setCookie ? [customer.setCookie] : [] });
});
