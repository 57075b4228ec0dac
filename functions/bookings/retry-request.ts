import { routeByName } from '../../shared/routes';
import { REQUEST_NOT_FOUND, requestViews } from './customer-jobs';
import { crewOf, refuseCrewMember } from '../jobs/crews';
import { customerActor } from '../jobs/data/job-history';
import { jobsRepo, type JobItem } from '../jobs/data/jobs';
import { restartSearch } from '../jobs/dispatch';
import { ConflictError, NotFoundError } from '../common/errors';
import { http } from '../common/http';

const endedWithNobody = (job: JobItem) => job.state === 'booked' && job.dispatch === 'no_worker_available';

/**
 * "Try again" after nobody accepted: the same job is offered afresh to the pros nearby, nothing
 * retyped. A second press (or a pro's clock-in that already restarted it) finds it searching and
 * answers it as it stands. On a crew (the lead's id) every member whose search ended with nobody
 * starts again, each by its own conditional write; the members with a pro are left as they are.
 */
export const handler = http(routeByName('retry-request'), async ({ params, caller }) => {
  const job = await jobsRepo.findCustomersJob(params.id, caller.id);
  if (!job) throw new NotFoundError(REQUEST_NOT_FOUND);
  refuseCrewMember(job);
  const crew = await crewOf(job);
  const waiting = crew.filter(endedWithNobody);
  if (waiting.length > 0) {
    for (const each of waiting) await restartSearch(each, 'We are asking the pros nearby again.', customerActor(each));
  } else if (job.state === 'cancelled') throw new ConflictError('This request was cancelled. Send a new one from the home page.');
  else if (!crew.some((each) => each.state === 'booked' || each.state === 'offered')) {
    throw new ConflictError(job.crew ? 'Every pro of this request has already accepted.' : 'A professional has already accepted this request.');
  }
  const [view] = await requestViews([(await jobsRepo.findById(job.id))!]);
  return view!;
});
