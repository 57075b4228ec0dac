import { routeByName } from '../../shared/routes';
import { ownerJobs } from '../owner/data/owner-jobs';
import { http } from '../common/http';

/** The pros of a trade the owner may offer a job to now: a page of the trade's on-call pros, those holding no job. */
export const handler = http(routeByName('list-available-workers'), async ({ query }) =>
  ownerJobs.availableWorkers(query.category, { limit: query.limit, cursor: query.cursor }),
);
