import { routeByName } from '../../shared/routes';
import { workerApplicationSchema } from '../../shared/schemas/applications';
import { fileWorkerApplication } from './applications';
import { fromWorkerApplication } from './data/applications';
import { http } from '../common/http';
import { takeCreation } from '../common/creation-limits';
import { refuseSuppressedAddresses } from '../mail/deliverable';

export const handler = http(routeByName('submit-worker-application'), workerApplicationSchema, async ({ body, event }) => {
  await refuseSuppressedAddresses({ emailAddress: body.emailAddress });
  await takeCreation('application', event);
  return fileWorkerApplication(fromWorkerApplication(body), {
    photoIdFrontUrl: body.photoIdFrontUrl,
    photoIdBackUrl: body.photoIdBackUrl,
    selfieUrl: body.selfieUrl,
  });
});
