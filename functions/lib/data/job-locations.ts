import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../../shared/table';
import { dynamo, tableName } from '../clients';

/** The latest location fix of the worker on a job (one item: only the latest is kept). */
export interface JobLocationItem {
  pk: string;
  sk: string;
  entity: 'job-location';
  jobId: string;
  workerId: string;
  lat: number;
  lng: number;
  accuracy: number | null;
  at: string;
}

export const jobLocationsRepo = {
  /** Keeps this fix unless the last one is younger than `minIntervalMs`; false when dropped. */
  async keepLatest(input: { jobId: string; workerId: string; lat: number; lng: number; accuracy: number | null; at: string; minIntervalMs: number }): Promise<boolean> {
    const cutoff = new Date(Date.parse(input.at) - input.minIntervalMs).toISOString();
    try {
      await dynamo.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.jobLocation(input.jobId), entity: 'job-location', jobId: input.jobId, workerId: input.workerId, lat: input.lat, lng: input.lng, accuracy: input.accuracy, at: input.at },
          ConditionExpression: 'attribute_not_exists(pk) OR (workerId <> :w) OR (#at <= :cutoff)',
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: { ':w': input.workerId, ':cutoff': cutoff },
        }),
      );
      return true;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  },

  async latest(jobId: string): Promise<JobLocationItem | undefined> {
    const out = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.jobLocation(jobId), ConsistentRead: true }));
    return out.Item as JobLocationItem | undefined;
  },
};
