import { categoryForService } from '../../shared/domain/dispatch';
import { routeByName } from '../../shared/routes';
import { hireSchema } from '../../shared/schemas/job';
import { workersRepo } from '../workers/data/workers';
import { jobsRepo } from '../jobs/data/jobs';
import { createdRequestReply, jobFromRequest } from './customer-jobs';
import { createAndDispatch } from '../jobs/dispatch';
import { outboxPuts } from '../mail/data/mail';
import { customerEmailPut } from '../common/auth/customers';
import { requestReceived } from '../mail/messages/customers';
import { NotFoundError } from '../common/errors';
import { http } from '../common/http';
import { createIds, earlierResult } from '../common/idempotency';
import { logger } from '../common/logger';
import { existingCustomer } from '../common/auth/customer';
import { takeCreation } from '../common/creation-limits';
import { checkedRequestedTime, estimateForJob } from './estimates';
import { DEFAULT_JOB_SIZE } from '../../shared/job-sizes';
import { refuseSuppressedAddresses } from '../mail/deliverable';

/** Hire Now: a request offered to the chosen worker first, then to the nearest others. */
export const handler = http(routeByName('hire-worker'), hireSchema, async ({ body, event }) => {
  const { workerId, ...request } = body;
  const requestedTime = checkedRequestedTime(request.requestedTime);
  await refuseSuppressedAddresses({ email: request.email });
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
  // Priced at the hired pro's rate: the job is offered to them first.
  const estimate = await estimateForJob({ category, size: request.jobSize ?? DEFAULT_JOB_SIZE, origin: null, requestedTime, hired: worker });
  const hire = jobFromRequest('hire', request, customer.id, { id: jobId, category, preferredWorkerId: worker.id, requestedTime, estimate });
  const received = requestReceived(hire);
  // With it, the record that this customer made something with the address ("Find my requests").
  const together = [...outboxPuts(received), ...(hire.customerEmail ? [customerEmailPut(hire.customerEmail, customer.id)] : [])];
  const job = await createAndDispatch(hire, together).catch(
    (error: unknown) => earlierResult(ids, error, () => jobsRepo.findCustomersJob(jobId, customer.id)),
  );
  logger.info('Hire requested', { requestNumber: job.id.slice(-8).toUpperCase(), category: job.category });
  return createdRequestReply(job, customer);
});
