import { categoryForService } from '../shared/domain/dispatch';
import { routeByName } from '../shared/routes';
import { serviceRequestSchema } from '../shared/schemas/request';
import { customerFor } from './lib/customer';
import { createdRequestReply, jobFromRequest } from './lib/customer-jobs';
import { createAndDispatch } from './lib/dispatch';
import { http } from './lib/http';
import { logger } from './lib/logger';

/** The home page's service request: it is its job, offered to the nearest workers at once. */
export const handler = http(routeByName('create-request'), serviceRequestSchema, async ({ body, event }) => {
  const customer = customerFor(event);
  const job = await createAndDispatch(jobFromRequest('request', body, customer.id, { category: categoryForService(body.service) }));
  logger.info('Service request created', { requestNumber: job.id.slice(-8).toUpperCase(), category: job.category });
  return createdRequestReply(job, customer);
});
