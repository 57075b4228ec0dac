import { categoryForService } from '../shared/domain/dispatch';
import { routeByName } from '../shared/routes';
import { hireSchema } from '../shared/schemas/job';
import { workersRepo } from './lib/data/workers';
import { jobsRepo } from './lib/data/jobs';
import { createdRequestReply, jobFromRequest } from './lib/customer-jobs';
import { createAndDispatch } from './lib/dispatch';
import { NotFoundError } from './lib/errors';
import { http } from './lib/http';
import { createIds, earlierResult } from './lib/idempotency';
import { logger } from './lib/logger';
import { existingCustomer } from './lib/customer';
import { takeCreation } from './lib/creation-limits';

/** Hire Now: a request offered to the chosen worker first, then to the nearest others. */
export const handler = http(routeByName('hire-worker'), hireSchema, async ({ body, event }) => {
  const { workerId, ...request } = body;
  const worker = await workersRepo.findById(workerId);
  if (!worker || worker.status !== 'active' || !worker.isVerified) {
    throw new NotFoundError('This professional is not available for hire. Choose another from the list.');
  }
  const known = await existingCustomer(event);
  await takeCreation('job', event, known);
  const ids = await createIds(event, known);
  const { customer } = ids;
  const jobId = ids.id('hire');
  // The job is in the hired pro's trade: the service the customer picked may map to another.
  const mapped = categoryForService(request.service);
  const category = worker.categories.includes(mapped) ? mapped : worker.categories[0]!;
  const job = await createAndDispatch(jobFromRequest('hire', request, customer.id, { id: jobId, category, preferredWorkerId: worker.id })).catch(
    (error: unknown) => earlierResult(ids, error, () => jobsRepo.findCustomersJob(jobId, customer.id)),
  );
  logger.info('Hire requested', { requestNumber: job.id.slice(-8).toUpperCase(), category: job.category });
  return createdRequestReply(job, customer);
});
