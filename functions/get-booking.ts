import { routeByName } from '../shared/routes';
import { bookingsRepo, toBooking } from './lib/data/bookings';
import { jobsRepo } from './lib/data/jobs';
import { NotFoundError } from './lib/errors';
import { http } from './lib/http';

/** The booking with the real progress of its job: its status is derived from the job's state, never stored twice. */
export const handler = http(routeByName('get-booking'), async ({ params }) => {
  const booking = await bookingsRepo.findById(params.id);
  if (!booking) throw new NotFoundError('The booking ID you entered could not be found.');
  const job = booking.jobId ? await jobsRepo.findById(booking.jobId, false) : undefined;
  return toBooking(booking, job);
});
