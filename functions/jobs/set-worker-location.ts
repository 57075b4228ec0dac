import { routeByName } from '../../shared/routes';
import { workerLocationSchema } from '../../shared/schemas/job';
import { dispatchIndex, geohashOf } from './data/dispatch-index';
import { workersRepo } from '../workers/data/workers';
import { reofferNearby } from './dispatch';
import { http, reply } from '../common/http';

/** The worker's position, so dispatch offers them the jobs nearest to them first. */
export const handler = http(routeByName('set-worker-location'), workerLocationSchema, async ({ body, caller }) => {
  const point = { lat: body.latitude, lng: body.longitude };
  const worker = await workersRepo.setLocation(caller.worker.id, {
    ...point,
    accuracy: body.accuracy ?? null,
    geohash: geohashOf(point),
    at: new Date().toISOString(),
  });
  await dispatchIndex.sync(worker);
  // On call now: a job nearby that found nobody in the last half hour is offered again.
  await reofferNearby(worker);
  return reply(204, undefined);
});
