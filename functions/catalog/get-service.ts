import { routeByName } from '../../shared/routes';
import { servicesRepo } from './data/services';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';

export const handler = http(routeByName('get-service'), async ({ params }) => {
  const service = await servicesRepo.findBySlug(params.slug);
  if (!service) throw new NotFoundError("The service you're looking for could not be found.");
  return service;
});
