import { categoryForService } from '../shared/domain/dispatch';
import { routeByName } from '../shared/routes';
import { jobItem } from './lib/data/jobs';
import { customerFor } from './lib/customer';
import { requestViews } from './lib/customer-jobs';
import { createAndDispatch } from './lib/dispatch';
import { http, reply } from './lib/http';
import { newId } from './lib/ids';
import { logger } from './lib/logger';

/** The home page's service request: it is its job, offered to the nearest workers at once. */
export const handler = http(routeByName('create-request'), async ({ body, event }) => {
  const customer = customerFor(event);
  const job = await createAndDispatch(
    jobItem({
      id: newId(),
      kind: 'request',
      customerId: customer.id,
      category: categoryForService(body.service),
      service: body.service,
      customerName: body.name,
      customerPhone: body.phoneNumber,
      customerEmail: body.email,
      address: body.location,
      latitude: body.clientLatitude,
      longitude: body.clientLongitude,
      gpsEnabled: body.gpsEnabled,
      description: body.description,
      createdAt: new Date().toISOString(),
    }),
  );
  logger.info('Service request created', { requestNumber: job.id.slice(-8).toUpperCase(), category: job.category });
  const [request] = await requestViews([job]);
  return reply(201, { success: true, request }, { cookies: customer.setCookie ? [customer.setCookie] : [] });
});
