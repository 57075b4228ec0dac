import { routeByName } from '../shared/routes';
import { REQUEST_NOT_FOUND, requestViews } from './lib/customer-jobs';
import { JobChangeRefused, jobsRepo } from './lib/data/jobs';
import { cancelOfferTimers, dispatchCycle } from './lib/dispatch';
import { ConflictError, NotFoundError } from './lib/errors';
import { http } from './lib/http';
import { jobCancelled } from './lib/job-events';
import { logger } from './lib/logger';

/**
 * The customer withdraws a request no pro has accepted yet. One conditional write decides between
 * this and an accept racing it; the pros it was offered to lose the offer at once and its timers go
 * (one that fires anyway finds nothing to expire).
 */
export const handler = http(routeByName('cancel-request'), async ({ params, caller }) => {
  const found = await jobsRepo.findCustomersJob(params.id, caller.id);
  if (!found) throw new NotFoundError(REQUEST_NOT_FOUND);
  if (found.state === 'cancelled') return (await requestViews([found]))[0]!;
  let before;
  try {
    before = await jobsRepo.cancel(found.id, caller.id, new Date().toISOString());
  } catch (error) {
    if (!(error instanceof JobChangeRefused)) throw error;
    if (error.current?.state === 'cancelled') return (await requestViews([error.current]))[0]!;
    throw new ConflictError('A professional has already accepted this request, so it can no longer be cancelled here. Call them, or contact support.');
  }
  const offeredTo = Object.keys(before.offers ?? {});
  await cancelOfferTimers(before.id, offeredTo, dispatchCycle(before));
  await jobsRepo.dropOffers(before.id, offeredTo);
  logger.info('Request cancelled', { jobId: before.id });
  const job = (await jobsRepo.findById(before.id))!;
  await jobCancelled(job, before.tried ?? []);
  return (await requestViews([job]))[0]!;
});
