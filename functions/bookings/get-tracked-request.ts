import { routeByName } from '../../shared/routes';
import type { TrackedRequestView, TrackViewer } from '../../shared/schemas/job';
import type { Caller } from '../common/auth/caller-types';
import { existingCustomer } from '../common/auth/customer';
import { requestViews } from './customer-jobs';
import { bookingsRepo } from './data/bookings';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { holdsNow, toTrackedView } from '../jobs/job-views';
import { BOOKING_NOT_FOUND } from '../../shared/schemas/tracking';

/** The job an id names: a job's own id (a request, a hire, a booking's job) or a booking's id. */
async function jobNamed(id: string): Promise<JobItem | undefined> {
  const job = await jobsRepo.findById(id, false);
  if (job) return job;
  const booking = await bookingsRepo.findById(id);
  return booking?.jobId ? jobsRepo.findById(booking.jobId, false) : undefined;
}

/**
 * Who reads the job: its customer by their cookie (whoever else is signed in in the same browser,
 * since only the cookie may act), the owner, the pro holding it now, else someone holding the link.
 */
async function viewerOf(job: JobItem, caller: Caller, event: Parameters<typeof existingCustomer>[0]): Promise<TrackViewer> {
  const customerId = caller.role === 'customer' ? caller.id : caller.role === 'anonymous' ? undefined : await existingCustomer(event);
  if (customerId && customerId === job.customerId) return 'customer';
  if (caller.role === 'owner') return 'owner';
  if (caller.role === 'worker' && holdsNow(job, caller.id)) return 'pro';
  return 'link';
}

/**
 * One timeline for every door: the job by its unguessable id. Whoever holds the link may follow its
 * progress; the customer's own details go only to the job's own people, and only the customer's
 * browser is told it may act (the actions themselves check the cookie again).
 */
export const handler = http(routeByName('get-tracked-request'), async ({ params, caller, event }) => {
  const job = await jobNamed(params.id);
  if (!job) throw new NotFoundError(BOOKING_NOT_FOUND);
  const [view] = await requestViews([job]);
  return toTrackedView(view!, job, await viewerOf(job, caller, event)) satisfies TrackedRequestView;
});
