import type { ServiceRequestView } from '../../shared/schemas/job';
import type { ServiceRequestInput } from '../../shared/schemas/request';
import { invoicesRepo } from '../payments/data/invoices';
import { jobItem, type JobItem } from '../jobs/data/jobs';
import type { IssuedCustomer } from '../common/auth/customer';
import { reply } from '../common/http';
import { workersRepo, type WorkerItem } from '../workers/data/workers';
import { toCrewMemberView, toServiceRequestView, type CrewContext } from '../jobs/job-views';
import { batchGet } from '../common/data/batch';
import { jobEntity, jobLocationEntity } from '../../shared/entities';
import type { JobLocationItem } from '../jobs/data/job-locations';
import { presignDownload } from '../common/storage';
import { declareTableUse } from '../../shared/entities';

/** What a customer's call about a job that is not theirs (or does not exist) answers. */
export const REQUEST_NOT_FOUND = 'We could not find this request among yours.';

/**
 * The customer's views of jobs, with each assigned worker's name, phone and photo. A crew's lead
 * shows every pro's place: one BatchGet reads its members and each job's latest location fix, one
 * more the pros' profiles (with those of the jobs themselves).
 */
export async function requestViews(jobs: readonly JobItem[]): Promise<ServiceRequestView[]> {
  const leads = jobs.filter((j) => j.crew && j.crew.leadId === j.id && j.crew.jobIds.length > 1);
  const { members, locations } = await crewItems(leads);
  const all = [...jobs, ...members.values()];
  const workerIds = all.map((j) => j.acceptedBy).filter((id): id is string => Boolean(id));
  const invoiceIds = jobs.map((j) => j.invoiceId).filter((id): id is string => Boolean(id));
  const [workerItems, invoiceItems] = await Promise.all([workersRepo.findMany(workerIds), invoicesRepo.findMany(invoiceIds)]);
  const workers = new Map(workerItems.map((w) => [w.id, w]));
  const invoices = new Map(invoiceItems.map((i) => [i.id, i]));
  const photos = new Map<string, Promise<string | null>>();
  const photoOf = (worker: WorkerItem | undefined) => {
    if (!worker?.profilePhotoKey) return Promise.resolve(null);
    if (!photos.has(worker.id)) photos.set(worker.id, presignDownload(worker.profilePhotoKey, 600).then((p) => p.url));
    return photos.get(worker.id)!;
  };
  const now = Date.now();
  return Promise.all(
    jobs.map(async (job) => {
      const worker = job.acceptedBy ? workers.get(job.acceptedBy) : undefined;
      const photoUrl = await photoOf(worker);
      let crew: CrewContext | undefined;
      if (leads.includes(job)) {
        const crewJobs = job.crew!.jobIds.map((id) => (id === job.id ? job : members.get(id))).filter((j): j is JobItem => j !== undefined);
        const views = await Promise.all(
          crewJobs.map(async (each) => {
            const holder = each.acceptedBy ? workers.get(each.acceptedBy) : undefined;
            return toCrewMemberView(each, holder, await photoOf(holder), locations.get(each.id));
          }),
        );
        crew = { jobs: crewJobs, views };
      }
      return toServiceRequestView(job, worker, photoUrl, job.invoiceId ? invoices.get(job.invoiceId) : undefined, now, crew);
    }),
  );
}

/** The members of these crews' leads and every crew job's latest location fix, in one BatchGet. */
async function crewItems(leads: readonly JobItem[]): Promise<{ members: Map<string, JobItem>; locations: Map<string, JobLocationItem> }> {
  const members = new Map<string, JobItem>();
  const locations = new Map<string, JobLocationItem>();
  if (leads.length === 0) return { members, locations };
  const crewIds = leads.flatMap((lead) => lead.crew!.jobIds);
  const memberIds = crewIds.filter((id) => !leads.some((lead) => lead.id === id));
  const items = await batchGet<JobItem | JobLocationItem>(
    [...new Set(memberIds)].map((id) => jobEntity.key(id)).concat([...new Set(crewIds)].map((id) => jobLocationEntity.key(id))),
  );
  for (const item of items) {
    if (item.entity === 'job') members.set(item.id, item);
    else if (item.entity === 'job-location') locations.set(item.jobId, item);
  }
  return { members, locations };
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

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEntity, jobLocationEntity] });
