import { routeByName } from '../../shared/routes';
import { applicationsRepo, toCompanyApplicationStatusView } from './data/applications';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';

/** The company's own status link: {id} is the unguessable id its submission answered. */
export const handler = http(routeByName('get-company-application-status'), async ({ params }) => {
  const application = await applicationsRepo.findCompanyApplication(params.id);
  if (!application) throw new NotFoundError('No company application with this id.');
  return toCompanyApplicationStatusView(application);
});
