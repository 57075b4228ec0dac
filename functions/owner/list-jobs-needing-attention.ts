import { routeByName } from '../../shared/routes';
import { ownerJobs } from './data/owner-jobs';
import { http } from '../common/http';

/**
 * "Needs attention": a page of the open jobs (the sparse gsi4 index, never the whole history) whose
 * search ended with no pro, has gone on too long, whose pro is overdue, or whose payment failed.
 */
export const handler = http(routeByName('list-jobs-needing-attention'), async ({ query }) => ownerJobs.attentionPage(query));
