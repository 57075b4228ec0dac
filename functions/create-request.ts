import { categoryForService } from '../shared/domain/dispatch';
import { routeByName } from '../shared/routes';
import { serviceRequestSchema } from '../shared/schemas/request';
import { jobsRepo } from './lib/data/jobs';
import { createdRequestReply, jobFromRequest } from './lib/customer-jobs';
import { createAndDispatch } from './lib/dispatch';
import { http } from './lib/http';
import { createIds, earlierResult } from './lib/idempotency';
import { logger } from './lib/logger';
import { existingCustomer } from './lib/customer';
import { takeCreation } from './lib/creation-limits';
import { checkedRequestedTime, estimateForJob, originOf } from './lib/estimates';
import { DEFAULT_JOB_SIZE } from '../shared/job-sizes';

/** The home page's service request: it is its job, offered to the nearest workers at once. */
export const handler = http(routeByName('create-request'), serviceRequestSchema, async ({ body, event }) => {
  // The client's baseAmount is ignored: the server prices the job itself.
  const requestedTime = checkedRequestedTime(body.requestedTime);
  const known = await existingCustomer(event);
  await takeCreation('job', event, known);
  const ids = await createIds(event, known);
  const { customer } = ids;
  const jobId = ids.id('request');
  const category = categoryForService(body.service);
  const origin = originOf(body.clientLatitude, body.clientLongitude);
  const estimate = await estimateForJob({ category, size: body.jobSize ?? DEFAULT_JOB_SIZE, origin, requestedTime });
  const job = await createAndDispatch(jobFromRequest('request', body, customer.id, { id: jobId, category, requestedTime, estimate })).catch(
    (error: unknown) => earlierResult(ids, error, () => jobsRepo.findCustomersJob(jobId, customer.id)),
  );
  logger.info('Service request created', { requestNumber: job.id.slice(-8).toUpperCase(), category: job.category });
  return createdRequestReply(job, customer);
});
