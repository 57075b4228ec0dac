import { phoneDigits } from '../../../shared/domain/requests';
import { jobEntity, trackingNumberEntity, type JobItem, type TrackingNumberItem } from '../../../shared/entities';
import { isNew, putOf } from '../../common/data/expressions';
import type { WriteAction } from '../../common/data/transact';
import { stats, writeCounted } from '../../owner/data/stats';
import { jobCustomer } from './job-customer';
import { customerActor, jobHistory } from './job-history';
import { jobNumber } from './job-item';
import { jobPayment } from './job-payment';
import { jobReads } from './job-reads';
import { jobRelease } from './job-release';
import { jobSearch } from './job-search';
import { jobWork } from './job-work';
import { declareTableUse } from '../../../shared/entities';

export type { JobItem, JobKind } from '../../../shared/entities';
export { JobChangeRefused, jobItem, jobNumber, RELEASED_WITH_THE_PRO, type NewJob } from './job-item';

/**
 * Puts a new job and its tracking number, with its first step of history and the owner's counters;
 * `together` are writes that happen with it (a booking's own item).
 */
async function create(job: JobItem, together: WriteAction[] = []): Promise<void> {
  const lookup: TrackingNumberItem = {
    ...trackingNumberEntity.key(jobNumber(job), phoneDigits(job.customerPhone), job.id),
    entity: 'tracking-number',
    jobId: job.id,
  };
  await writeCounted([...together, { Put: putOf(jobEntity, job, isNew) }, { Put: putOf(trackingNumberEntity, lookup) },
    jobHistory.putAction(job.id, { type: 'created', actor: customerActor(job), at: job.createdAt }), ...stats.jobSent(job)]);
}

/**
 * Jobs. A booking's job sits beside its booking; a service request and a hire are their job. Every
 * change is conditional on the state it expects; dispatch changes also on `version`, so two timers
 * or a timer and an accept never both win. Each part lives in its own module (the reads, the
 * search for a pro, the pro's moves, the customer's, the release of a pro's job, the payment);
 * this object keeps the one name the handlers know them by.
 */
export const jobsRepo = {
  create,
  ...jobReads,
  ...jobSearch,
  ...jobWork,
  ...jobCustomer,
  ...jobRelease,
  ...jobPayment,
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEntity, trackingNumberEntity], writes: [jobEntity, trackingNumberEntity] });
