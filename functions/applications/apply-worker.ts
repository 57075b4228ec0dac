import { routeByName } from '../../shared/routes';
import { workerApplyLegacySchema } from '../../shared/schemas/applications';
import { fileWorkerApplication } from './applications';
import { fromLegacyApplication } from './data/applications';
import { http } from '../common/http';
import { takeCreation } from '../common/creation-limits';
import { refuseSuppressedAddresses } from '../mail/deliverable';

/** The shorter form's field names (rate in dollars), stored as the same record as the full JSON form. */
export const handler = http(routeByName('apply-worker'), workerApplyLegacySchema, async ({ body, event }) => {
  await refuseSuppressedAddresses({ email: body.email });
  await takeCreation('application', event);
  return fileWorkerApplication(fromLegacyApplication(body), {
    idFrontPhoto: body.idFrontPhoto,
    idBackPhoto: body.idBackPhoto,
    selfie: body.selfie,
  });
});
