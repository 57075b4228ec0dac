import { routeByName } from '../shared/routes';
import { workersRepo } from './lib/data/workers';
import { http } from './lib/http';

/** Conditional on being clocked in: clocking out while out gets 409. */
export const handler = http(routeByName('clock-out'), async ({ caller }) => {
  const worker = await workersRepo.clockOut(caller.worker.id);
  return { isClockedIn: worker.isClockedIn };
});
