import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { jobLocationEntity, type JobLocationItem } from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { putOf } from '../../common/data/expressions';
import { lostRace } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

export type { JobLocationItem } from '../../../shared/entities';

export const jobLocationsRepo = {
  /** Keeps this fix unless the last one is younger than `minIntervalMs`; false when dropped. */
  async keepLatest(input: { jobId: string; workerId: string; lat: number; lng: number; accuracy: number | null; at: string; minIntervalMs: number }): Promise<boolean> {
    const cutoff = new Date(Date.parse(input.at) - input.minIntervalMs).toISOString();
    const item: JobLocationItem = {
      ...jobLocationEntity.key(input.jobId),
      entity: 'job-location',
      jobId: input.jobId,
      workerId: input.workerId,
      lat: input.lat,
      lng: input.lng,
      accuracy: input.accuracy,
      at: input.at,
    };
    try {
      await dynamo.send(new PutCommand(putOf(jobLocationEntity, item, (c) => c.or(c.notExists('pk'), c.ne('workerId', input.workerId), c.le('at', cutoff)))));
      return true;
    } catch (error) {
      if (lostRace(error)) return false;
      throw error;
    }
  },

  async latest(jobId: string): Promise<JobLocationItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: jobLocationEntity.key(jobId), ConsistentRead: true }));
    return out.Item as JobLocationItem | undefined;
  },
};

/** The items this module reads and writes: the stack's table grants are generated from these (infra/table-grants.ts). */
export const tableUse = declareTableUse({ reads: [jobLocationEntity], writes: [jobLocationEntity] });
