import { routeByName } from '../shared/routes';
import { bookingIdPattern } from '../shared/schemas/booking';
import { bookingsRepo, toBooking } from './lib/data/bookings';
import { jobsRepo } from './lib/data/jobs';
import { NotFoundError } from './lib/errors';
import { http } from './lib/http';

/** The booking with the real progress of its job (DESIGN.md section 8's derived status). */
export const handler = http(routeByName('get-booking'), async ({ params }) => {
  const id = params.id ?? '';
  const booking = bookingIdPattern.test(id) ? await bookingsRepo.findById(id) : undefined;
  if (!booking) throw new NotFoundError('The booking ID you entered could not be found.');
  const job = booking.jobId ? await jobsRepo.findById(booking.jobId, false) : undefined;
  return toBooking(booking, job);
});
