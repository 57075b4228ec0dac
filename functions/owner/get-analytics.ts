import { routeByName } from '../../shared/routes';
import type { Analytics } from '../../shared/schemas/admin';
import { analyticsOf, rangeOf } from './analytics';
import { stats } from './data/stats';
import { http } from '../common/http';

/**
 * The owner's figures for a range of days, from counters moved with each change (never by reading
 * every job): the overall item plus at most one item per day of the range (≤ 400), so the read is
 * the same at a thousand jobs or a million.
 */
export const handler = http(routeByName('get-analytics'), async ({ query }): Promise<Analytics> => {
  const range = rangeOf(query, new Date().toISOString().slice(0, 10));
  const [overall, days] = await Promise.all([stats.overall(), stats.days(range.from, range.to)]);
  return analyticsOf(overall, days, range, query.by);
});
