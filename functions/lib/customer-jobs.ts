import type { ServiceRequestView } from '../../shared/schemas/job';
import type { ServiceRequestInput } from '../../shared/schemas/request';
import { invoicesRepo } from './data/invoices';
import { jobItem, type JobItem } from './data/jobs';
import type { IssuedCustomer } from './customer';
import { reply } from './http';
import { workersRepo } from './data/workers';
import { toServiceRequestView } from './job-views';
import { presignDownload } from './storage';

/** What a customer's call about a job that is not theirs (or does not exist) answers. */
export const REQUEST_NOT_FOUND = 'We could not find this request among yours.';

/** The customer's views of jobs, with each assigned worker's name, phone and photo. */
export async function requestViews(jobs: readonly JobItem[]): Promise<ServiceRequestView[]> {
  const workerIds = jobs.map((j) => j.acceptedBy).filter((id): id is string => Boolean(id));
  const invoiceIds = jobs.map((j) => j.invoiceId).filter((id): id is string => Boolean(id));
  const [workerItems, invoiceItems] = await Promise.all([workersRepo.findMany(workerIds), invoicesRepo.findMany(invoiceIds)]);
  const workers = new Map(workerItems.map((w) => [w.id, w]));
  const invoices = new Map(invoiceItems.map((i) => [i.id, i]));
  return Promise.all(
    jobs.map(async (job) => {
      const worker = job.acceptedBy ? workers.get(job.acceptedBy) : undefined;
      const photoUrl = worker?.profilePhotoKey ? (await presignDownload(worker.profilePhotoKey, 600)).url : null;
      return toServiceRequestView(job, worker, photoUrl, job.invoiceId ? invoices.get(job.invoiceId) : undefined);
    }),
  );
}

/** The job a service request or a hire makes: the form's fields, the caller as its customer. */
export function jobFromRequest(
  kind: 'request' | 'hire',
  body: ServiceRequestInput,
  customerId: string,
  extra: { id: string; category: string; preferredWorkerId?: string; requestedTime?: string | null; estimate?: JobItem['estimate'] },
): JobItem {
  return jobItem({
    id: extra.id,
    kind,
    customerId,
    category: extra.category,
    service: body.service,
    customerName: body.name,
    customerPhone: body.phoneNumber,
    customerEmail: body.email,
    address: body.location,
    latitude: body.clientLatitude,
    longitude: body.clientLongitude,
    gpsEnabled: body.gpsEnabled,
    description: body.description,
    preferredWorkerId: extra.preferredWorkerId,
    requestedTime: extra.requestedTime ?? null,
    estimate: extra.estimate ?? null,
    createdAt: new Date().toISOString(),
  });
}

/** 201 `{ success, request }`, with the customer cookie when this call minted it. */
export async function createdRequestReply(job: JobItem, customer: IssuedCustomer) {
  const [request] = await requestViews([job]);
  return reply(201, { success: true, request }, { cookies: customer.setCookie ? [customer.setCookie] : [] });
}
