import { routeByName } from '../../shared/routes';
import { REQUEST_NOT_FOUND, requestViews } from './customer-jobs';
import { ACCEPTED, CREW_HELD, cancelOne, mayCancel } from './cancellation';
import { crewOf, refuseCrewMember } from '../jobs/crews';
import { jobsRepo } from '../jobs/data/jobs';
import { ConflictError, NotFoundError } from '../common/errors';
import { http } from '../common/http';

/**
 * The customer withdraws a request no pro has accepted yet. One conditional write decides between
 * this and an accept racing it; the pros it was offered to lose the offer at once and its timers go
 * (one that fires anyway finds nothing to expire).
 *
 * A crew (the lead's id) is cancelled whole or not at all: every member is read first, and if any
 * pro holds theirs past the point of cancelling (an as-soon-as-possible job accepted, or any on the
 * way) nothing is written. Then each member is cancelled by its own conditional write, so a retry
 * finishes what a failed call left and a cancelled member answers as cancelled.
 */
export const handler = http(routeByName('cancel-request'), async ({ params, caller }) => {
  const found = await jobsRepo.findCustomersJob(params.id, caller.id);
  if (!found) throw new NotFoundError(REQUEST_NOT_FOUND);
  refuseCrewMember(found);
  const live = (await crewOf(found)).filter((job) => job.state !== 'cancelled');
  if (live.length === 0) return (await requestViews([found]))[0]!;
  if (!live.every(mayCancel)) throw new ConflictError(found.crew ? CREW_HELD : ACCEPTED);
  for (const job of live) await cancelOne(job, caller.id);
  return (await requestViews([(await jobsRepo.findById(found.id))!]))[0]!;
});
