import { routeByName } from '../shared/routes';
import type { TrackedRequestView } from '../shared/schemas/job';
import { existingCustomer } from './lib/customer';
import { requestViews } from './lib/customer-jobs';
import { bookingsRepo } from './lib/data/bookings';
import { jobsRepo, type JobItem } from './lib/data/jobs';
import { NotFoundError } from './lib/errors';
import { http } from './lib/http';
import { BOOKING_NOT_FOUND } from '../shared/schemas/tracking';

/** The job an id names: a job's own id (a request, a hire, a booking's job) or a booking's id. */
async function jobNamed(id: string): Promise<JobItem | undefined> {
  const job = await jobsRepo.findById(id, false);
  if (job) return job;
  const booking = await bookingsRepo.findById(id);
  return booking?.jobId ? jobsRepo.findById(booking.jobId, false) : undefined;
}

/**
 * One timeline for every door: the job by its unguessable id, as its customer sees it. Whoever holds
 * the link may follow it; only the customer's own browser is told it may act (the actions
 * themselves check the cookie again).
 */
export const handler = http(routeByName('get-tracked-request'), async ({ params, event }) => {
  const job = await jobNamed(params.id);
  if (!job) throw new NotFoundError(BOOKING_NOT_FOUND);
  const [view] = await requestViews([job]);
  return { ...view!, viewer: (await existingCustomer(event)) === job.customerId ? 'customer' : 'link' } satisfies TrackedRequestView;
});
