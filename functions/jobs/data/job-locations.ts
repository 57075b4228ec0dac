import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { jobLocationEntity, type JobLocationItem } from '../../../shared/entities';
import { dynamo, tableName } from '../../common/clients';
import { putOf } from '../../common/data/expressions';
import { lostRace } from '../../common/data/write';
import { declareTableUse } from '../../../shared/entities';

export type { JobLocationItem } from '../../../shared/entities';

export const jobLocationsRepo = {
  /**
   * Keeps this fix as the job's latest unless the one kept last is this worker's and less than
   * `minIntervalMs` older (or newer, a fix that came late); false when dropped. Decided from a read,
   * which costs a fifth of a write: a dropped fix writes nothing, a kept one writes once. The read is
   * strongly consistent so the fix kept a moment ago is always seen. The write repeats the read's
   * rule as its condition, so that condition is refused only when fixes race (handled at once, both
   * read before either wrote): the loser costs the write it tried, as any write does, but it is not
   * kept, not published, and cannot put an older fix over a newer one.
   */
  async keepLatest(input: { jobId: string; workerId: string; lat: number; lng: number; accuracy: number | null; at: string; minIntervalMs: number }): Promise<boolean> {
    const cutoff = new Date(Date.parse(input.at) - input.minIntervalMs).toISOString();
    const last = await jobLocationsRepo.latest(input.jobId);
    if (last && last.workerId === input.workerId && last.at > cutoff) return false;
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
