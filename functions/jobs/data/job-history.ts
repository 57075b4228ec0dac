import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { jobEventEntity, type JobEventActor, type JobEventItem } from '../../../shared/entities';
import { dynamo } from '../../common/clients';
import { newId } from '../../common/ids';
import { putOf } from '../../common/data/expressions';
import { queryAll } from '../../common/data/query';
import type { WriteAction } from '../../common/data/transact';
import { declareTableUse } from '../../../shared/entities';

export type { JobEventActor, JobEventItem } from '../../../shared/entities';

export interface NewJobEvent {
  type: string;
  actor: JobEventActor;
  workerId?: string | null;
  detail?: string | null;
  /** When it happened (ISO); the change's own `now`, so the timeline and the job agree. */
  at: string;
}

/** The timer, the webhook or the dispatcher: steps nobody made by hand. */
export const systemActor: JobEventActor = { role: 'system', id: null, name: null };

function eventItem(jobId: string, event: NewJobEvent): JobEventItem {
  const id = newId();
  return {
    ...jobEventEntity.key(jobId, event.at, id),
    entity: 'job-event',
    jobId,
    id,
    type: event.type,
    at: event.at,
    actor: event.actor,
    workerId: event.workerId ?? null,
    detail: event.detail ?? null,
  };
}

/** A job's history: appended with each step, read whole (one job's steps stay few), oldest first. */
export const jobHistory = {
  /** The Put that records a step inside the write that makes it (writeTogether), so neither happens alone. */
  putAction(jobId: string, event: NewJobEvent): WriteAction {
    return { Put: putOf(jobEventEntity, eventItem(jobId, event)) };
  },

  /** Records a step already written on its own (a single conditional update that succeeded). */
  async record(jobId: string, event: NewJobEvent): Promise<void> {
    await dynamo.send(new PutCommand(putOf(jobEventEntity, eventItem(jobId, event))));
  },

  async list(jobId: string): Promise<JobEventItem[]> {
    return queryAll(jobEventEntity.range(jobId));
  },
};

/** The customer a job belongs to, as its timeline names them. */
export const customerActor = (job: { customerId: string; customerName: string }): JobEventActor => ({
  role: 'customer',
  id: job.customerId,
  name: job.customerName,
});

/** A pro; the owner's page fills in the name of one stored without it. */
export const workerActor = (workerId: string, name: string | null = null): JobEventActor => ({ role: 'worker', id: workerId, name });

export const ownerActor = (owner: { id: string; username: string }): JobEventActor => ({ role: 'owner', id: owner.id, name: owner.username });

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobEventEntity], writes: [jobEventEntity] });
