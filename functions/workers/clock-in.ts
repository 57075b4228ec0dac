import { routeByName } from '../../shared/routes';
import { dispatchIndex } from '../jobs/data/dispatch-index';
import { workersRepo } from './data/workers';
import { reofferNearby } from '../jobs/dispatch';
import { http } from '../common/http';

/** Conditional on being clocked out: a second clock-in, even a concurrent one, gets 409. */
export const handler = http(routeByName('clock-in'), async ({ caller }) => {
  const worker = await workersRepo.clockIn(caller.worker.id);
  // Joins or leaves the dispatch index with it (entries are hints: dispatch re-checks profiles).
  await dispatchIndex.sync(worker);
  // On call now: a job nearby that found nobody in the last half hour is offered again.
  await reofferNearby(worker);
  return { isClockedIn: worker.isClockedIn, lastClockIn: worker.lastClockIn };
});
