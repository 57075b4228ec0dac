import { categoryForService } from '../../shared/domain/dispatch';
import { routeByName } from '../../shared/routes';
import { serviceRequestSchema } from '../../shared/schemas/request';
import { jobsRepo } from '../jobs/data/jobs';
import { createdRequestReply, jobFromRequest } from './customer-jobs';
import { dispatchNew, scheduleStartTimers } from '../jobs/dispatch';
import { crewJobs, storeCrew } from '../jobs/crews';
import { http } from '../common/http';
import { outboxPuts } from '../mail/data/mail';
import { customerEmailPut } from '../common/auth/customers';
import { requestReceived } from '../mail/messages/customers';
import { createIds, earlierResult } from '../common/idempotency';
import { logger } from '../common/logger';
import { existingCustomer } from '../common/auth/customer';
import { takeCreation } from '../common/creation-limits';
import { checkedRequestedTime, estimateForJob, originOf } from './estimates';
import { DEFAULT_JOB_SIZE } from '../../shared/job-sizes';
import { refuseSuppressedAddresses } from '../mail/deliverable';

/**
 * The home page's service request: it is its job, offered to the nearest workers at once. A request
 * for N pros (workerCount) is a crew of N jobs made together (functions/jobs/crews.ts): the lead is
 * the request answered here, each job is offered to pros of its own.
 */
export const handler = http(routeByName('create-request'), serviceRequestSchema, async ({ body, event }) => {
  // The client's baseAmount is ignored: the server prices the job itself.
  const requestedTime = checkedRequestedTime(body.requestedTime);
  await refuseSuppressedAddresses({ email: body.email });
  const known = await existingCustomer(event);
  await takeCreation('job', event, known);
  const ids = await createIds(event, known);
  const { customer } = ids;
  const jobId = ids.id('request');
  const workerCount = body.workerCount ?? 1;
  // Derived from the key like the lead's, so a retried POST meets the same members.
  const memberIds = Array.from({ length: workerCount - 1 }, (_, i) => ids.id(`request-${i + 2}`));
  const category = categoryForService(body.service);
  const origin = originOf(body.clientLatitude, body.clientLongitude);
  const estimate = await estimateForJob({ category, size: body.jobSize ?? DEFAULT_JOB_SIZE, origin, requestedTime, workerCount });
  const build = (id: string) => jobFromRequest('request', body, customer.id, { id, category, requestedTime, estimate });
  const jobs = crewJobs(build(jobId), memberIds, build);
  let job;
  try {
    // A scheduled job's timers exist before the job does, so none is stored without its release.
    for (const each of jobs) await scheduleStartTimers(each);
    // The customer's "request received" mail is stored with the lead, once for the whole request.
    // With it, the record that this customer made something with the address ("Find my requests").
    const received = requestReceived(jobs[0]!);
    const withLead = [...outboxPuts(received), ...(jobs[0]!.customerEmail ? [customerEmailPut(jobs[0]!.customerEmail, customer.id)] : [])];
    await storeCrew(jobs, ids.keyed, (each) => jobsRepo.create(each, each.id === jobId ? withLead : []));
    // Each job of a crew is offered in turn, so each one's pros exclude those its siblings were offered.
    job = await dispatchNew(jobs[0]!);
    for (const member of jobs.slice(1)) await dispatchNew(member);
  } catch (error) {
    job = await earlierResult(ids, error, () => jobsRepo.findCustomersJob(jobId, customer.id));
  }
  logger.info('Service request created', { requestNumber: job.id.slice(-8).toUpperCase(), category: job.category, workerCount });
  return createdRequestReply(job, customer);
});
