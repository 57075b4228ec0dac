import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { TallyItem } from '../../shared/entities';
import { stats } from './data/stats';
import { logger } from '../common/logger';

/**
 * The tally a stream record carries, if it is one. The event source mapping's filter
 * (shared/owner/routes.ts tallyRecords) passes new tallies among other records; this checks again, so anything else is
 * ignored, never counted.
 */
export function tallyOf(record: DynamoDBRecord): TallyItem | undefined {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>) as Partial<TallyItem>;
  if (item.entity !== 'tally' || typeof item.pk !== 'string' || !item.pk.startsWith('TALLY#') || typeof item.counts !== 'object' || !item.counts) return undefined;
  const numbersOnly = Object.values(item.counts).every((adds) => typeof adds === 'object' && adds && Object.values(adds).every((by) => Number.isFinite(by)));
  return numbersOnly ? (item as TallyItem) : undefined;
}

/**
 * Fed by the table's stream (its reader, functions/stream/follow-table-changes.ts, hands every record
 * over; this takes the tallies among them): the tallies the changes wrote (functions/owner/data/stats.ts) are added
 * into the owner's figures, a batch at a time, so one write moves a day's item for many changes.
 * Counting is once per tally however often a record comes (each tally is deleted in the write that
 * counts it). A batch that cannot be written is reported whole: the stream hands it over again, and
 * what was counted already is skipped then.
 */
export async function countStats(event: Pick<DynamoDBStreamEvent, 'Records'>): Promise<DynamoDBBatchResponse> {
  const tallies = event.Records.map(tallyOf).filter((t): t is TallyItem => t !== undefined);
  if (!tallies.length) return { batchItemFailures: [] };
  try {
    const counted = await stats.countTallies(tallies);
    logger.info('Figures counted', { tallies: tallies.length, counted });
    return { batchItemFailures: [] };
  } catch (error) {
    logger.warn('Figures not counted: the batch is retried', { tallies: tallies.length, errorName: (error as Error)?.name });
    // From the first tally on: the records before it (of other kinds) were not this part's to fail.
    const first = event.Records.find((r) => r.dynamodb?.SequenceNumber && tallyOf(r))?.dynamodb?.SequenceNumber;
    return { batchItemFailures: first ? [{ itemIdentifier: first }] : [] };
  }
}
