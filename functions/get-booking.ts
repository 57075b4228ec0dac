import { routeByName } from '../shared/routes';
import { bookingIdPattern } from '../shared/schemas/booking';
import { bookingsRepo } from './lib/data/bookings';
import { NotFoundError } from './lib/errors';
import { http } from './lib/http';

export const handler = http(routeByName('get-booking'), async ({ params }) => {
  const id = params.id ?? '';
  const booking = bookingIdPattern.test(id) ? await bookingsRepo.findById(id) : undefined;
  if (!booking) throw new NotFoundError('The booking ID you entered could not be found.');
  return booking;
});
