import { routeByName } from '../../shared/routes';
import { applicationsRepo, toWorkerApplicationStatusView } from './data/applications';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';

/**
 * The signed-in worker's own application, for the review screen: name, trades, when it was
 * submitted, its status and, once decided, when (with the owner's notes on a rejection). The
 * application is the profile's own (`applicationId`): there is no id to name.
 */
export const handler = http(routeByName('get-worker-application'), async ({ caller }) => {
  const application = await applicationsRepo.findWorkerApplication(caller.worker.applicationId);
  if (!application) throw new NotFoundError('No application is on file for this account.');
  return toWorkerApplicationStatusView(application);
});
