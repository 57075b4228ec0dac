import { routeByName } from '../shared/routes';
import { availabilitySchema } from '../shared/schemas/worker';
import { dispatchIndex } from './lib/data/dispatch-index';
import { workersRepo } from './lib/data/workers';
import { http } from './lib/http';

export const handler = http(routeByName('set-availability'), availabilitySchema, async ({ body, caller }) => {
  const worker = await workersRepo.setAvailability(caller.worker.id, body.isAvailable);
  // Joins or leaves the dispatch index with it (entries are hints: dispatch re-checks profiles).
  await dispatchIndex.sync(worker);
  return { isAvailable: worker.isAvailable };
});
