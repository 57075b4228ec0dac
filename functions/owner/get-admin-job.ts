import { routeByName } from '../../shared/routes';
import { ownerJobs } from './data/owner-jobs';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';

/** The owner's job page: the job, its standing offers and its whole timeline, pros named. */
export const handler = http(routeByName('get-admin-job'), async ({ params }) => {
  const detail = await ownerJobs.detail(params.id);
  if (!detail) throw new NotFoundError('No job with this id.');
  return detail;
});
