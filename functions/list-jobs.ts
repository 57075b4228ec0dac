import { routeByName } from '../shared/routes';
import { ownerJobs } from './lib/data/worker-admin';
import { http } from './lib/http';

/** Every job, read from the jobs index (gsi3 'JOBS'), in the owner's view. */
export const handler = http(routeByName('list-jobs'), async () => ownerJobs.listAll());
