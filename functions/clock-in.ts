import { routeByName } from '../shared/routes';
import { workersRepo } from './lib/data/workers';
import { http } from './lib/http';

/** Conditional on being clocked out: a second clock-in, even a concurrent one, gets 409. */
export const handler = http(routeByName('clock-in'), async ({ caller }) => {
  const worker = await workersRepo.clockIn(caller.worker.id);
  return { isClockedIn: worker.isClockedIn, lastClockIn: worker.lastClockIn };
});
