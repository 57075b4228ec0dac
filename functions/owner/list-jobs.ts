import { routeByName } from '../../shared/routes';
import { ownerJobs } from './data/owner-jobs';
import { http } from '../common/http';

/**
 * One page of every job, newest first, from the jobs index (gsi3 'JOBS#<shard>', its shards merged): the created-date range
 * narrows the key; state, trade, pro, customer and text are filtered within a read budget, so a
 * narrow filter may answer a short page with a cursor (the screen offers "Load more").
 */
export const handler = http(routeByName('list-jobs'), async ({ query }) => ownerJobs.listPage(query));
