import { categoryForService } from '../shared/domain/dispatch';
import { routeByName } from '../shared/routes';
import { jobItem } from './lib/data/jobs';
import { workersRepo } from './lib/data/workers';
import { customerFor } from './lib/customer';
import { requestViews } from './lib/customer-jobs';
import { createAndDispatch } from './lib/dispatch';
import { NotFoundError } from './lib/errors';
import { http, reply } from './lib/http';
import { newId } from './lib/ids';
import { logger } from './lib/logger';

/** Hire Now: a request offered to the chosen worker first, then to the nearest others. */
export const handler = http(routeByName('hire-worker'), async ({ body, event }) => {
  const worker = await workersRepo.findById(body.workerId);
  if (!worker || worker.status !== 'active' || !worker.isVerified) {
    throw new NotFoundError('This professional is not available for hire. Choose another from the list.');
  }
  const customer = customerFor(event);
  const job = await createAndDispatch(
    jobItem({
      id: newId(),
      kind: 'hire',
      customerId: customer.id,
      category: worker.categories.includes(categoryForService(body.service)) ? categoryForService(body.service) : worker.categories[0]!,
      service: body.service,
      customerName: body.name,
      customerPhone: body.phoneNumber,
      customerEmail: body.email,
      address: body.location,
      latitude: body.clientLatitude,
      longitude: body.clientLongitude,
      gpsEnabled: body.gpsEnabled,
      description: body.description,
      preferredWorkerId: worker.id,
      createdAt: new Date().toISOString(),
    }),
  );
  logger.info('Hire requested', { requestNumber: job.id.slice(-8).toUpperCase(), category: job.category });
  const [request] = await requestViews([job]);
  return reply(201, { success: true, request }, { cookies: customer.setCookie ? [customer.setCookie] : [] });
});
