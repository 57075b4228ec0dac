import { routeByName } from '../shared/routes';
import { workersRepo } from './lib/data/workers';
import { http } from './lib/http';

export const handler = http(routeByName('set-availability'), async ({ body, caller }) => {
  const worker = await workersRepo.setAvailability(caller.worker.id, body.isAvailable);
  return { isAvailable: worker.isAvailable };
});
