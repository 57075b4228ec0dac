import { routeByName } from '../../shared/routes';
import { arrivalAnswerSchema } from '../../shared/schemas/job';
import { REQUEST_NOT_FOUND, requestViews } from '../bookings/customer-jobs';
import { JobChangeRefused, jobsRepo, type JobItem } from '../jobs/data/jobs';
import { cancelArrival, dispatchCycle } from '../jobs/dispatch';
import { ConflictError, NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { arrivalAnswered } from '../jobs/job-events';
import { logger } from '../common/logger';

const awaitingArrival = new Set(['accepted', 'en_route']);

/**
 * Why there is no claim to answer (`arrived` is what the customer said): nothing when the job is
 * already where that answer would leave it, so pressing twice answers the same; else a 409 saying
 * where the job stands.
 */
function nothingToAnswer(job: JobItem, arrived: boolean): Error | null {
  if (job.state === 'cancelled') return new ConflictError('This request was cancelled.');
  if (awaitingArrival.has(job.state) && job.acceptedBy) return arrived ? new ConflictError('Your pro has not said they have arrived yet.') : null;
  if (!job.acceptedBy || job.state === 'booked' || job.state === 'offered') {
    return new ConflictError('Your pro did not arrive in time, so we are finding you another one.');
  }
  // Arrived or further along: a yes is already true; a no comes too late to change it.
  return arrived ? null : new ConflictError('Your pro\'s arrival is already recorded.');
}

/**
 * "Has your pro arrived?": the customer's answer to a Mark Arrived that no location proved. Yes
 * moves the job to arrived as of the pro's claim (the arrival timer goes, as with a proven Mark
 * Arrived); no clears the claim and the pro is told. One conditional write decides between this,
 * a second answer and the arrival timer.
 */
export const handler = http(routeByName('confirm-arrival'), arrivalAnswerSchema, async ({ params, body, caller }) => {
  const job = await jobsRepo.findCustomersJob(params.id, caller.id);
  if (!job) throw new NotFoundError(REQUEST_NOT_FOUND);
  const claim = job.arrivalClaim;
  const answer = async (current: JobItem) => {
    const refused = nothingToAnswer(current, body.arrived);
    if (refused) throw refused;
    return (await requestViews([current]))[0]!;
  };
  if (!claim || claim.workerId !== job.acceptedBy || !awaitingArrival.has(job.state)) return answer(job);
  let answered;
  try {
    answered = await jobsRepo.answerArrivalClaim({
      jobId: job.id,
      customerId: caller.id,
      workerId: claim.workerId,
      claimedAt: claim.claimedAt,
      arrived: body.arrived,
      now: new Date().toISOString(),
      arriveBy: job.arriveBy,
    });
  } catch (error) {
    if (!(error instanceof JobChangeRefused) || !error.current) throw error;
    return answer(error.current);
  }
  if (body.arrived) await cancelArrival(job.id, claim.workerId, dispatchCycle(job));
  await arrivalAnswered(answered, claim.workerId, body.arrived);
  logger.info('Arrival claim answered', { jobId: job.id, arrived: body.arrived });
  return (await requestViews([answered]))[0]!;
});
