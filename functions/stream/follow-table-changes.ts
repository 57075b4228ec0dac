import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { countStats } from '../owner/count-stats';
import { deliverPush } from '../realtime/deliver-push';
import { withRequestContext } from '../common/logger';

/**
 * The table stream's second reader: each batch goes to every part that follows changes, and each
 * part takes its own records (the owner's figures count the tallies, push delivers the urgent
 * notifications). The parts run side by side, so a slow push service does not hold the counting.
 *
 * The stream retries a batch from the earliest record any part reported; the records after it come
 * again to both parts, and each skips what it already did (a counted tally is gone, a pushed
 * notification is marked delivered), so a retry repeats no count and no push.
 */
export const handler = withRequestContext(async (event: DynamoDBStreamEvent, _context?: Context): Promise<DynamoDBBatchResponse> => {
  const parts = await Promise.all([countStats(event), deliverPush(event)]);
  return { batchItemFailures: parts.flatMap((part) => part.batchItemFailures) };
}, 'follow-table-changes');
