import { routeByName } from '../../shared/routes';
import { existingCustomer } from '../common/auth/customer';
import { bookingsRepo, toBooking } from './data/bookings';
import { jobsRepo } from '../jobs/data/jobs';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';

/**
 * The booking with the real progress of its job: its status is derived from the job's state, never
 * stored twice. The id alone shows the progress and the town; the customer's own details go to their
 * own cookie and the owner.
 */
export const handler = http(routeByName('get-booking'), async ({ params, caller, event }) => {
  const booking = await bookingsRepo.findById(params.id);
  if (!booking) throw new NotFoundError('The booking ID you entered could not be found.');
  const job = booking.jobId ? await jobsRepo.findById(booking.jobId, false) : undefined;
  const customerId = caller.role === 'customer' ? caller.id : caller.role === 'anonymous' ? undefined : await existingCustomer(event);
  return toBooking(booking, job, caller.role === 'owner' || (customerId !== undefined && customerId === booking.customerId));
});
