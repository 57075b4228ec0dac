import { routeByName } from '../shared/routes';
import { fileWorkerApplication } from './lib/applications';
import { fromWorkerApplication } from './lib/data/applications';
import { http } from './lib/http';

export const handler = http(routeByName('submit-worker-application'), async ({ body }) =>
  fileWorkerApplication(fromWorkerApplication(body), {
    photoIdFrontUrl: body.photoIdFrontUrl,
    photoIdBackUrl: body.photoIdBackUrl,
    selfieUrl: body.selfieUrl,
  }),
);
