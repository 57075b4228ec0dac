import { routeByName } from '../../shared/routes';
import { http } from '../common/http';
import { toWorkerJobView } from './job-views';
import { jobForWorker } from './worker-jobs';

/** One job, for the worker who holds it or is offered it; anyone else gets 404. */
export const handler = http(routeByName('get-job'), async ({ params, caller }) =>
  toWorkerJobView(await jobForWorker(params.id, caller.worker), caller.worker),
);
