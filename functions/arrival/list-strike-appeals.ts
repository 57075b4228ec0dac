import { routeByName } from '../../shared/routes';
import { penaltiesRepo, toStrikeView } from './data/penalties';
import { http } from '../common/http';

/** The appeals waiting for the owner's decision, oldest first, a page at a time. */
export const handler = http(routeByName('list-strike-appeals'), async ({ query }) => {
  const page = await penaltiesRepo.openAppeals({ limit: query.limit, cursor: query.cursor });
  return { items: page.items.map(toStrikeView), nextCursor: page.nextCursor };
});
