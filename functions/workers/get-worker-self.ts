import { routeByName } from '../../shared/routes';
import { toWorkerSelf } from './data/workers';
import { http } from '../common/http';
import { presignDownload } from '../common/storage';

/** The token's own worker (never another: there is no id to name); pending and terminated too. */
export const handler = http(routeByName('get-worker-self'), async ({ caller }) => {
  const { worker } = caller;
  const photoUrl = worker.profilePhotoKey ? (await presignDownload(worker.profilePhotoKey)).url : null;
  return toWorkerSelf(worker, photoUrl);
});
