import { routeByName } from '../shared/routes';
import { REQUEST_NOT_FOUND, requestViews } from './lib/customer-jobs';
import { customerActor } from './lib/data/job-history';
import { jobsRepo } from './lib/data/jobs';
import { restartSearch } from './lib/dispatch';
import { ConflictError, NotFoundError } from './lib/errors';
import { http } from './lib/http';

/**
 * "Try again" after nobody accepted: the same job is offered afresh to the pros nearby, nothing
 * retyped. A second press (or a pro's clock-in that already restarted it) finds it searching and
 * answers it as it stands.
 */
export const handler = http(routeByName('retry-request'), async ({ params, caller }) => {
  const job = await jobsRepo.findCustomersJob(params.id, caller.id);
  if (!job) throw new NotFoundError(REQUEST_NOT_FOUND);
  const waiting = job.state === 'booked' && job.dispatch === 'no_worker_available';
  if (waiting) await restartSearch(job, 'We are asking the pros nearby again.', customerActor(job));
  else if (job.state === 'cancelled') throw new ConflictError('This request was cancelled. Send a new one from the home page.');
  else if (job.state !== 'booked' && job.state !== 'offered') throw new ConflictError('A professional has already accepted this request.');
  const [view] = await requestViews([(await jobsRepo.findById(job.id))!]);
  return view!;
});
