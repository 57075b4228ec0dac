import { checkArrival, type ArrivalCheck, type ArrivalFix } from '../../shared/domain/arrival';
import { jobLocationsRepo } from '../jobs/data/job-locations';
import type { JobItem } from '../jobs/data/jobs';
import type { WorkerItem } from '../workers/data/workers';
import { env } from '../common/env';

/**
 * Whether the pro pressing Mark Arrived is at the job. Any of their fixes may prove it: the one sent
 * with the press (stamped now: the server has no better clock for it), the last they shared with
 * dispatch (POST /api/workers/location) or the last they shared with the job's room while on the way.
 */
export async function checkProArrival(
  job: JobItem,
  worker: WorkerItem,
  position: { lat: number; lng: number; accuracy: number } | undefined,
  now: number,
): Promise<ArrivalCheck> {
  const at = job.latitude !== null && job.longitude !== null ? { lat: job.latitude, lng: job.longitude } : null;
  if (!at) return checkArrival(null, [], env.ARRIVAL_RADIUS_METRES, now);
  const shared = await jobLocationsRepo.latest(job.id);
  const fixes: (ArrivalFix | undefined)[] = [
    position ? { ...position, at: new Date(now).toISOString() } : undefined,
    worker.location ? { lat: worker.location.lat, lng: worker.location.lng, accuracy: worker.location.accuracy, at: worker.location.at } : undefined,
    shared && shared.workerId === worker.id ? { lat: shared.lat, lng: shared.lng, accuracy: shared.accuracy, at: shared.at } : undefined,
  ];
  return checkArrival(at, fixes, env.ARRIVAL_RADIUS_METRES, now);
}
