import { routeByName } from '../../shared/routes';
import { availabilitySchema } from '../../shared/schemas/worker';
import { dispatchIndex } from '../jobs/data/dispatch-index';
import { workersRepo } from './data/workers';
import { reofferNearby } from '../jobs/dispatch';
import { http } from '../common/http';

export const handler = http(routeByName('set-availability'), availabilitySchema, async ({ body, caller }) => {
  const worker = await workersRepo.setAvailability(caller.worker.id, body.isAvailable);
  // Joins or leaves the dispatch index with it (entries are hints: dispatch re-checks profiles).
  await dispatchIndex.sync(worker);
  // On call now: a job nearby that found nobody in the last half hour is offered again.
  await reofferNearby(worker);
  return { isAvailable: worker.isAvailable };
});
