import { routeByName } from '../../shared/routes';
import { NotFoundError } from '../common/errors';
import { penaltiesRepo, toStrikeView } from './data/penalties';
import { workersRepo } from '../workers/data/workers';
import { http } from '../common/http';

/** {id} is the worker id: their strikes with evidence, oldest first, a page at a time. */
export const handler = http(routeByName('list-worker-strikes'), async ({ params, query }) => {
  if (!(await workersRepo.findById(params.id))) throw new NotFoundError('No worker with this id.');
  const page = await penaltiesRepo.pageOf(params.id, { limit: query.limit, cursor: query.cursor });
  return { items: page.items.map(toStrikeView), nextCursor: page.nextCursor };
});
