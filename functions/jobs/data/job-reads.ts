import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { phoneDigits } from '../../../shared/domain/requests';
import { jobEntity, trackingNumberEntity, type JobItem, workerOfferEntity } from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { batchGet } from '../../common/data/batch';
import { queryAll } from '../../common/data/query';
import { isId } from '../../../shared/schemas/id';
import { declareTableUse } from '../../../shared/entities';

const queryJobs = (range: ReturnType<typeof jobEntity.range>) => queryAll<JobItem>(range);

/** Finding jobs: by id, by the number a screen shows, and the lists of a customer's, a worker's and a trade's. */
export const jobReads = {
  async findById(id: string, consistent = true): Promise<JobItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: jobEntity.key(id), ConsistentRead: consistent }));
    return out.Item as JobItem | undefined;
  },

  /** A job of this customer's; another customer's (or a malformed id) answers as a missing one. */
  async findCustomersJob(id: string, customerId: string, consistent = true): Promise<JobItem | undefined> {
    const job = isId(id) ? await jobReads.findById(id, consistent) : undefined;
    return job?.customerId === customerId ? job : undefined;
  },

  async findMany(ids: readonly string[]): Promise<JobItem[]> {
    return batchGet<JobItem>([...new Set(ids)].map((id) => jobEntity.key(id)));
  },

  /** The job a screen's number and the phone it was made with point at, if any. */
  async findByNumber(number: string, phone: string): Promise<JobItem | undefined> {
    const [lookup] = await queryAll({ ...trackingNumberEntity.range(number, phoneDigits(phone)), limit: 1 });
    return lookup ? jobReads.findById(lookup.jobId, false) : undefined;
  },

  /** The customer's requests and hires, oldest first. */
  async listForCustomer(customerId: string): Promise<JobItem[]> {
    return queryJobs(jobEntity.indexes.customerRequests.range(customerId));
  },

  /** The jobs a worker holds now (accepted to in progress). */
  async listHeldBy(workerId: string): Promise<JobItem[]> {
    return queryJobs(jobEntity.indexes.workerJobs.range(workerId, 'ACTIVE'));
  },

  /** The jobs a worker finished, oldest first. */
  async listCompletedBy(workerId: string): Promise<JobItem[]> {
    return queryJobs(jobEntity.indexes.workerJobs.range(workerId, 'DONE'));
  },

  /** Ids of the jobs offered to a worker (the job item decides whether each offer still stands). */
  async offeredJobIds(workerId: string): Promise<string[]> {
    const offers = await queryAll(workerOfferEntity.range(workerId));
    return offers.map((offer) => offer.jobId);
  },

  /** Jobs of a trade whose search ended with nobody since `since` (ISO), oldest first. */
  async listUnfilledSince(category: string, since: string): Promise<JobItem[]> {
    return queryAll({ ...jobEntity.indexes.unfilled.range(category), sk: { ge: since }, limit: 50 });
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEntity, trackingNumberEntity, workerOfferEntity] });
