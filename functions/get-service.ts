import { routeByName } from '../shared/routes';
import { slugPattern } from '../shared/schemas/service';
import { servicesRepo } from './lib/data/services';
import { NotFoundError } from './lib/errors';
import { http } from './lib/http';

export const handler = http(routeByName('get-service'), async ({ params }) => {
  const slug = params.slug ?? '';
  // A malformed slug cannot name a service: answer as for any unknown one, without a read.
  const service = slugPattern.test(slug) ? await servicesRepo.findBySlug(slug) : undefined;
  if (!service) throw new NotFoundError("The service you're looking for could not be found.");
  return service;
});
