import { routeByName } from '../../shared/routes';
import { dispatchIndex } from '../jobs/data/dispatch-index';
import { workersRepo } from './data/workers';
import { http } from '../common/http';

/** Conditional on being clocked in: clocking out while out gets 409. */
export const handler = http(routeByName('clock-out'), async ({ caller }) => {
  const worker = await workersRepo.clockOut(caller.worker.id);
  // Joins or leaves the dispatch index with it (entries are hints: dispatch re-checks profiles).
  await dispatchIndex.sync(worker);
  return { isClockedIn: worker.isClockedIn };
});
